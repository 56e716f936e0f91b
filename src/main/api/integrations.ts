// integrations.list / install / uninstall: Settings → Extensions runs the same installers as
// `throughline install`, from the same list (integrations/registry.ts), with the core's environment.
import type { Api, IntegrationChange, IntegrationInfo } from '../../shared/api.js';
import { InstallError } from '../integrations/files.js';
import { findIntegration, INTEGRATIONS, type Integration } from '../integrations/registry.js';
import { ApiError } from './dispatch.js';
import { RPC } from '../../shared/rpc.js';

type IntegrationMethods = Pick<Api, 'integrations.list' | 'integrations.install' | 'integrations.uninstall'>;

function info(i: Integration, env: NodeJS.ProcessEnv): IntegrationInfo {
  const base = { id: i.id, agent: i.agent, adds: i.adds };
  try {
    return { ...base, ...i.state(env) };
  } catch (err) {
    if (!(err instanceof InstallError)) throw err;
    return { ...base, state: 'unreadable', files: [], problem: err.message };
  }
}

function named(id: string): Integration {
  const found = findIntegration(id);
  if (!found) throw new ApiError(RPC.INVALID_PARAMS, `Invalid params: id: no integration "${id}"; one of ${INTEGRATIONS.map((i) => i.id).join(', ')}.`, { field: 'id' });
  return found;
}

export function integrationMethods(env: NodeJS.ProcessEnv): IntegrationMethods {
  const change = (verb: 'install' | 'uninstall', id: string): IntegrationChange => {
    const integration = named(id);
    const report = integration[verb](env);
    return { ...report, integration: info(integration, env) };
  };
  return {
    'integrations.list': async () => ({ items: INTEGRATIONS.map((i) => info(i, env)) }),
    'integrations.install': async (p) => change('install', p.id),
    'integrations.uninstall': async (p) => change('uninstall', p.id),
  };
}
