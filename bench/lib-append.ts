// Appends a user message to a session file the way its agent would (so the watcher and the adapter
// see a real new turn), and puts the file back afterwards so the corpus stays as generated. OpenCode
// writes a new turn as two new files (its message and its text part) beside the session's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Agent } from './corpus-formats.js';

type Json = Record<string, unknown>;

function lastRecord(file: string): Json {
  const text = fs.readFileSync(file, 'utf8').trimEnd();
  return JSON.parse(text.slice(text.lastIndexOf('\n') + 1)) as Json;
}

/** The line(s) an agent writes for a new user message after the file's current last line (Aider: Markdown). */
export function userTurnLines(agent: Agent, file: string, text: string, at = new Date()): string {
  const ts = at.toISOString();
  const last = agent === 'aider' ? {} : lastRecord(file);
  if (agent === 'pi') {
    const line = { type: 'message', id: crypto.randomBytes(4).toString('hex'), parentId: last.id ?? null, timestamp: ts,
      message: { role: 'user', content: [{ type: 'text', text }], timestamp: at.getTime() } };
    return `${JSON.stringify(line)}\n`;
  }
  if (agent === 'claude-code') {
    const line = { parentUuid: last.uuid ?? null, isSidechain: false, userType: 'external', cwd: last.cwd, sessionId: last.sessionId,
      version: '2.0.64', gitBranch: 'main', type: 'user', message: { role: 'user', content: text }, uuid: crypto.randomUUID(), timestamp: ts };
    return `${JSON.stringify(line)}\n`;
  }
  if (agent === 'aider') return `#### ${text}  \n\n`;
  if (agent === 'gemini') return `${JSON.stringify({ id: crypto.randomUUID(), timestamp: ts, type: 'user', content: [{ text }] })}\n`;
  if (agent === 'copilot') {
    const line = { type: 'user.message', data: { content: text, transformedContent: text, attachments: [] }, id: crypto.randomUUID(), timestamp: ts, parentId: last.id ?? null };
    return `${JSON.stringify(line)}\n`;
  }
  if (agent === 'cursor') return `${JSON.stringify({ role: 'user', message: { content: [{ type: 'text', text: `<user_query>\n${text}\n</user_query>` }] } })}\n`;
  if (agent === 'droid') {
    const line = { type: 'message', id: crypto.randomUUID(), parentId: last.id ?? null, timestamp: ts, message: { role: 'user', content: [{ type: 'text', text }] } };
    return `${JSON.stringify(line)}\n`;
  }
  if (agent === 'opencode') throw new Error('OpenCode appends no lines: a new turn is new files (appendUserTurn)');
  const item = { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } };
  const event = { timestamp: ts, type: 'event_msg', payload: { type: 'user_message', message: text, images: [] } };
  return `${JSON.stringify(item)}\n${JSON.stringify(event)}\n`;
}

export interface Restorer {
  restore(): void;
}

/** A new user turn in the conversation of `file` (its session file), undone by restore(). */
export function appendUserTurn(agent: Agent, file: string, text: string, at = new Date()): Restorer {
  return agent === 'opencode' ? opencodeUserTurn(file, text, at) : appendRestorable(file, userTurnLines(agent, file, text, at));
}

/**
 * OpenCode: `message/<ses>/<msg>.json` and `part/<msg>/<prt>.json` next to `session/<project>/<ses>.json`.
 * The ids sort after the session's (now is later than any corpus date), as OpenCode's ascending ids do.
 */
function opencodeUserTurn(sessionFile: string, text: string, at: Date): Restorer {
  const storage = path.dirname(path.dirname(path.dirname(sessionFile)));
  const sessionID = path.basename(sessionFile, '.json');
  const stamp = (BigInt(at.getTime()) * 0x1000n).toString(16).padStart(12, '0');
  const messageID = `msg_${stamp}${crypto.randomBytes(7).toString('hex')}`;
  const partID = `prt_${stamp}${crypto.randomBytes(7).toString('hex')}`;
  const messageFile = path.join(storage, 'message', sessionID, `${messageID}.json`);
  const partDir = path.join(storage, 'part', messageID);
  fs.writeFileSync(messageFile, JSON.stringify({ id: messageID, sessionID, role: 'user', time: { created: at.getTime() }, agent: 'build' }, null, 2));
  fs.mkdirSync(partDir);
  fs.writeFileSync(path.join(partDir, `${partID}.json`), JSON.stringify({ id: partID, sessionID, messageID, type: 'text', text }, null, 2));
  return {
    restore() {
      fs.rmSync(partDir, { recursive: true, force: true });
      fs.rmSync(messageFile, { force: true });
    },
  };
}

/** Appends `lines`; restore() truncates the file back and resets its times. */
export function appendRestorable(file: string, lines: string): Restorer {
  const st = fs.statSync(file);
  fs.appendFileSync(file, lines);
  return {
    restore() {
      fs.truncateSync(file, st.size);
      fs.utimesSync(file, st.atime, st.mtime);
    },
  };
}
