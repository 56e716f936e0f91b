// `throughline serve | mcp | hook | install | uninstall | activity`: the agent side of the CLI.
// Each command loads its modules on demand, so the hook (run on every prompt) pays for little.
import path from 'node:path';
import { dbPathFrom, intFlag, parseFlags, printJson, rawOut, UsageError, type CliIO, type Command } from './command.js';
import { forPerson } from './human.js';
import { colorEnabled, columns, createPaint, escapeControls } from './terminal.js';
import { RPC } from '../../shared/rpc.js';


export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the daemon: index, watch, and answer agents on the local socket',
  help: `Usage: throughline serve [--db FILE] [--socket PATH] [--log FILE] [--no-watch] [--ui [--host H [--allow-remote]] [--port N]]

Opens (or creates) the index, indexes new sessions in the background and keeps watching them, and
answers agents on the local socket (JSON-RPC 2.0, one JSON object per line; see docs/agents.md).
Stops cleanly on SIGINT/SIGTERM. Refuses to start while another server holds the socket.
  --socket PATH  the socket (default $THROUGHLINE_SOCKET, $XDG_RUNTIME_DIR/throughline/agent.sock,
                 else /tmp/throughline-$UID/agent.sock)
  --log FILE     the log (default $XDG_STATE_HOME/throughline/daemon.log)
  --no-watch     answer from the index as it is: no indexing, no watching
  --ui           also serve the UI over HTTP on --host (default 127.0.0.1) and --port (default: any free)
  --allow-remote let --host be other than loopback (127.x, ::1, localhost); refused without it, since
                 whoever reaches the port and learns the token reads everything (prefer an SSH tunnel)
  --db FILE      the index (default $THROUGHLINE_DB or $XDG_DATA_HOME/throughline/index.sqlite)
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, {
      socket: { type: 'string' },
      log: { type: 'string' },
      'no-watch': { type: 'boolean' },
      ui: { type: 'boolean' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      port: { type: 'string' },
    });
    const port = intFlag(values.port, 'port', 0, 65535);
    if (values.ui && values.host !== undefined && !values['allow-remote']) {
      // Before anything starts (or the UI is built): the bridge would refuse it too.
      const { isLoopback, remoteRefusal } = await import('../server/http-security.js');
      if (!isLoopback(values.host)) {
        io.err(`throughline serve: ${remoteRefusal(values.host)}\n`);
        return 1;
      }
    }
    if (values.ui) {
      const { ensureUiBuilt } = await import('./ui-build.js');
      const { defaultRendererDir } = await import('../server/http.js');
      const problem = await ensureUiBuilt(defaultRendererDir(), (line) => io.err(`${line}\n`));
      if (problem) io.err(`throughline serve: ${problem}\n`);
    }
    const { startDaemon } = await import('../daemon/daemon.js');
    const daemon = await startDaemon({
      dbPath: dbPathFrom(values, io.env),
      socketPath: values.socket ? path.resolve(values.socket) : undefined,
      env: io.env,
      log: values.log ? path.resolve(values.log) : undefined,
      watch: !values['no-watch'],
      http: values.ui ? { host: values.host ?? '127.0.0.1', port, token: io.env.THROUGHLINE_HTTP_TOKEN, allowRemote: values['allow-remote'] } : undefined,
    }).catch((err: Error & { kind?: string }) => {
      // Expected refusals (already running, unsafe folder) are a message, not a stack trace.
      if (err.kind === undefined) throw err;
      io.err(`throughline serve: ${err.message}\n`);
      return null;
    });
    if (!daemon) return 1;
    io.err(`Throughline is serving agents on ${daemon.socketPath} (pid ${process.pid}).\n`);
    if (daemon.httpUrl) io.out(`${daemon.httpUrl}\n`);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        daemon.log('info', `${signal}: shutting down`);
        void daemon.close().then(resolve, resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the recall and history tools over MCP (stdio)',
  help: `Usage: throughline mcp [--db FILE] [--socket PATH]

An MCP server on stdin/stdout with recall_conversations, read_conversation, conversation_inspect,
history_search, history_read and history_handoff. Uses the running daemon's socket, or opens the
index read-only when none runs. $THROUGHLINE_TOKEN: an agent token from settings.
$THROUGHLINE_CONVERSATION: the default "conversation" for the history tools.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, { socket: { type: 'string' } });
    const { serveMcp } = await import('../mcp/server.js');
    await serveMcp({ dbPath: dbPathFrom(values, io.env), socketPath: values.socket, env: io.env });
    return 0;
  },
};

export const hookCommand: Command = {
  name: 'hook',
  summary: 'turn-start hook for Claude Code (`hook claude`), Codex (`hook codex`) and Gemini CLI (`hook gemini`); reads the hook JSON on stdin',
  help: `Usage: throughline hook claude|codex|gemini [--db FILE] [--socket PATH]

Run by the agent (installed by \`throughline install claude\`, \`install codex\` or \`install gemini\`). Reads the hook JSON on
stdin; before a session's first prompt (or every prompt, with autoRecallWhen "every") prints the pointer
block as additionalContext; for Claude Code, on SessionStart after a compaction, a note on the history
tools; otherwise nothing. Never fails the prompt: it exits 0 within 2 s, whatever happens, and errors go
to $XDG_STATE_HOME/throughline/hook.log.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    // Reached when the hook's own bundle is missing or stale (see bin/throughline.mjs); same code.
    // It ends the process itself (exit 0 within its deadline), so it is the process's last command.
    const { hookMain } = await import('../hook/main.js');
    return hookMain(args, io.env);
  },
};

function installCommand(verb: 'install' | 'uninstall'): Command {
  return {
    name: verb,
    summary: verb === 'install' ? 'connect an agent: claude, codex, gemini (hook + MCP), opencode, copilot, cursor, droid (MCP), pi (extension)' : 'remove what `install` added for an agent',
    help: `Usage: throughline ${verb} claude|codex|pi|gemini|opencode|copilot|cursor|droid [--dry-run] [--json]

${
  verb === 'install'
    ? `claude  adds a UserPromptSubmit hook and a SessionStart("compact") hook to $CLAUDE_CONFIG_DIR/settings.json
        (default ~/.claude/settings.json) and the MCP server "throughline" to the user's .claude.json
codex   adds [mcp_servers.throughline] to $CODEX_HOME/config.toml (default ~/.codex/config.toml) and a
        UserPromptSubmit hook to $CODEX_HOME/hooks.json (Codex runs it once you trust it in /hooks)
pi      copies the extension to $PI_CODING_AGENT_DIR/extensions/ (default ~/.pi/agent/extensions/)
gemini  adds mcpServers.throughline and a BeforeAgent hook to ~/.gemini/settings.json ($GEMINI_CLI_HOME)
opencode adds mcp.throughline to $XDG_CONFIG_HOME/opencode/opencode.jsonc or opencode.json
copilot adds mcpServers.throughline to $COPILOT_HOME/mcp-config.json (default ~/.copilot)
cursor  adds mcpServers.throughline to ~/.cursor/mcp.json (the editor and cursor-agent)
droid   adds mcpServers.throughline to ~/.factory/mcp.json
JSON settings files are edited in place: comments and formatting stay. Idempotent; every file is backed
up (FILE.throughline-backup-TIMESTAMP) before it changes. Agents start Throughline through a launcher
at $XDG_DATA_HOME/throughline/bin/throughline that outlives a Node upgrade; $THROUGHLINE_COMMAND
overrides it. MCP servers get this shell's socket, index and settings paths pinned.`
    : 'Removes exactly the entries `install` added (backing up each file first); leaves everything else.'
}
  --dry-run   print what would change, change nothing
`,
    async run(args: string[], io: CliIO): Promise<number> {
      const { values, positionals } = parseFlags(args, { 'dry-run': { type: 'boolean' } });
      // The api's integrations.install/uninstall, as Settings → Extensions calls them (no index is opened).
      const { changeIntegration, integrationIds } = await import('../api/integrations.js');
      const { ApiError } = await import('../api/dispatch.js');
      const agent = positionals[0];
      if (!agent) throw new UsageError(`${verb} takes one of ${integrationIds().join(', ')}`);
      let report;
      try {
        report = await changeIntegration(io.env, `integrations.${verb}`, { id: agent, dryRun: Boolean(values['dry-run']) });
      } catch (err) {
        // A file we will not touch (unparseable, a form we cannot edit) is the person's to fix: one line, no stack.
        if (!(err instanceof ApiError) || err.code !== RPC.CONFLICT) throw err;
        io.err(`throughline ${verb} ${agent}: ${err.message}\n`);
        return 1;
      }
      if (values.json) {
        printJson(io, report);
        return 0;
      }
      const done = report.dryRun ? 'would change' : verb === 'install' ? 'updated' : 'cleaned';
      for (const f of report.changed) io.out(`${done} ${f}\n`);
      for (const d of report.diffs) io.out(`${d.diff.replace(/^/gm, '    ')}\n`);
      for (const f of report.unchanged) io.out(`unchanged ${f}\n`);
      for (const f of report.backups) io.out(`backup    ${f}\n`);
      if (!report.dryRun) for (const n of report.notes) io.out(`${n}\n`);
      if (!report.changed.length && !report.unchanged.length) io.out(`Nothing to ${verb} for ${agent}.\n`);
      if (report.dryRun) io.out('Dry run: nothing was changed.\n');
      return 0;
    },
  };
}

export const activityCommand: Command = {
  name: 'activity',
  summary: 'what agents asked and were given',
  help: `Usage: throughline activity [--db FILE] [--limit N] [--json]

The latest agent calls, newest first: time, client, method, a summary of the params, the
conversations returned and the size of the answer. --limit N (1–1000, default 50).
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, { limit: { type: 'string' } });
    const limit = intFlag(values.limit, 'limit', 1, 1000) ?? 50;
    const { withCore } = await import('./core-session.js');
    const { items } = await withCore(values, io, ({ call }) => call('activity', { limit }));
    if (values.json) {
      printJson(io, { items });
      return 0;
    }
    if (!items.length) io.out('No agent activity yet.\n');
    else if (forPerson(io, values.json)) {
      // Aligned columns; the client name and params are the agents' own text: escaped.
      const paint = createPaint(colorEnabled(io.env, true));
      const rows = [['time (UTC)', 'client', 'method', 'answer', 'conversations', 'asked'].map((h) => paint.dim(h))];
      for (const a of items) {
        const when = new Date(a.at).toISOString().replace('T', ' ').slice(0, 19);
        const convs = a.conversations.length ? a.conversations.map((c) => `#${c}`).join(' ') : '';
        rows.push([paint.dim(when), escapeControls(a.client), paint.label(escapeControls(a.method)), `${a.bytes.toLocaleString('en-US')} B`, convs, escapeControls(a.params.replace(/\s+/g, ' '))]);
      }
      rawOut(io)(columns(rows, [3]).join('\n') + '\n');
    } else {
      for (const a of items) {
        const when = new Date(a.at).toISOString().replace('T', ' ').slice(0, 19);
        const convs = a.conversations.length ? ` → ${a.conversations.join(', ')}` : '';
        io.out(`${when}  ${a.client.padEnd(12)} ${a.method.padEnd(20)} ${a.params}${convs}  ${a.bytes} B\n`);
      }
    }
    return 0;
  },
};

export const agentCommands: Command[] = [serveCommand, mcpCommand, hookCommand, installCommand('install'), installCommand('uninstall'), activityCommand];
