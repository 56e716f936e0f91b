// integrations.list / install / uninstall: Settings → Extensions runs the same installers as
// `throughline install`, from the same list (integrations/registry.ts), with the core's environment.
// The CLI's install and uninstall call the same methods with no core (installing opens no index).
import type { Api, IntegrationChange, IntegrationInfo } from '../../shared/api.js';
import { InstallError } from '../integrations/files.js';
import { findIntegration, INTEGRATIONS, type Integration } from '../integrations/registry.js';
import { ApiError, callApi, validateCall } from './dispatch.js';
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
  const change = (verb: 'install' | 'uninstall', id: string, dryRun = false): IntegrationChange => {
    const integration = named(id);
    const report = integration[verb](env, { dryRun });
    return { ...report, integration: info(integration, env) };
  };
  return {
    'integrations.list': async () => ({ items: INTEGRATIONS.map((i) => info(i, env)) }),
    'integrations.install': async (p) => change('install', p.id, p.dryRun),
    'integrations.uninstall': async (p) => change('uninstall', p.id, p.dryRun),
  };
}

/** The integrations' ids, in the order Settings lists them (`throughline install ID`). */
export const integrationIds = (): string[] => INTEGRATIONS.map((i) => i.id);

/**
 * integrations.install or .uninstall for a transport that holds no core (the CLI): the params checked
 * by the method's schema and failures mapped to ApiError, as dispatch does for every other call.
 */
export async function changeIntegration(env: NodeJS.ProcessEnv, method: 'integrations.install' | 'integrations.uninstall', params: unknown): Promise<IntegrationChange> {
  return callApi(integrationMethods(env), validateCall(method, params));
}
