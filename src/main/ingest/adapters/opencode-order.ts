// The order in which OpenCode's storage part folders are read, which is the order their entries take
// in the transcript (each part is appended as its file is read). A part folder is named by its
// message's id; OpenCode's ids ascend with time, but copied or hand-made storage (and ids from other
// writers) need not, so the folders go by their message's own time (time.created), ids breaking ties.
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../regular-file.js';
import { parseMessage, type OcMessage } from './opencode-shapes.js';
import { baseName, dirName } from './text.js';

const MESSAGE_FILE_MAX = 1 << 20;

/** Whether `dir` is a storage folder's `part` folder, whose children are named by message id. */
export function isPartFolder(dir: string): boolean {
  return baseName(dir) === 'part' && baseName(dirName(dir)) === 'storage';
}

/** One message file, read up to `max` bytes; undefined when it is not a readable message. */
export function readMessageFile(file: string, max: number): OcMessage | undefined {
  const text = readRegularFile(file, max);
  return text === undefined ? undefined : parseMessage(text);
}

/** Each message's time.created, by its id, from every message file of the storage folder. */
function messageTimes(storage: string): Map<string, number> {
  const times = new Map<string, number>();
  const messages = path.join(storage, 'message');
  let sessions: string[];
  try {
    sessions = fs.readdirSync(messages);
  } catch {
    return times;
  }
  for (const session of sessions) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(messages, session));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const message = readMessageFile(path.join(messages, session, name), MESSAGE_FILE_MAX);
      if (message?.time?.created === undefined) continue;
      times.set(message.id ?? name.slice(0, -'.json'.length), message.time.created);
    }
  }
  return times;
}

/**
 * The part folders (message ids) in the order of their messages' time; a message without a readable
 * time goes after those with one. Ties, and the untimed among themselves, go by id (name order).
 */
export function orderPartFolders(dir: string, names: string[]): string[] {
  const times = messageTimes(dirName(dir));
  const time = (name: string) => times.get(name) ?? Infinity;
  return [...names].sort((a, b) => time(a) - time(b) || (a < b ? -1 : a > b ? 1 : 0));
}
