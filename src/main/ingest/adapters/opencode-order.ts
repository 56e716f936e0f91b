// The order in which OpenCode's storage part folders are read, which is the order their entries take
// in the transcript (each part is appended as its file is read). A part folder is named by its
// message's id; OpenCode's ids ascend with time, but copied or hand-made storage (and ids from other
// writers) need not, so the folders go by their message's own time (time.created), ids breaking ties.
// A message's time is kept as its file's reader state when the file is indexed, so a scan reads only
// the message files not indexed yet: an unchanged storage costs no read (every message file read at
// every scan made the 30 s re-scan of 10k a third slower, BENCHMARKS.md).
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../regular-file.js';
import type { StoredStates } from '../types.js';
import { parseMessage, type OcMessage } from './opencode-shapes.js';
import { baseName, dirName, isObject } from './text.js';

const MESSAGE_FILE_MAX = 1 << 20;

/** What a message file's reader keeps: its message's id and time.created. */
export interface MessageTime {
  id: string;
  created: number;
}

/** A storage folder's folder of message files (one folder per session). */
export function messageFolder(storage: string): string {
  return path.join(storage, 'message');
}

/** Whether `dir` is a storage folder's `part` folder, whose children are named by message id. */
export function isPartFolder(dir: string): boolean {
  return baseName(dir) === 'part' && baseName(dirName(dir)) === 'storage';
}

/** One message file, read up to `max` bytes; undefined when it is not a readable message. */
export function readMessageFile(file: string, max: number): OcMessage | undefined {
  const text = readRegularFile(file, max);
  return text === undefined ? undefined : parseMessage(text);
}

/** A message's id (its file's name when it has none) and time; null without a time. */
export function messageTime(message: OcMessage | undefined, file: string): MessageTime | null {
  const created = message?.time.created;
  if (created === undefined) return null;
  return { id: message?.id ?? baseName(file).slice(0, -'.json'.length), created };
}

function storedTime(state: unknown): MessageTime | undefined {
  return isObject(state) && typeof state.id === 'string' && typeof state.created === 'number' ? { id: state.id, created: state.created } : undefined;
}

/**
 * Each message's time.created, by its id, for the messages `wanted`: as stored for the message files
 * already indexed (a message's time does not change). Only when one is not there (a new message, or
 * one without a time) are the message folders listed, and the files with no stored time read.
 */
function messageTimes(storage: string, stored: StoredStates, wanted: readonly string[]): Map<string, number> {
  const times = new Map<string, number>();
  const messages = messageFolder(storage);
  const kept = stored(messages);
  for (const state of kept.values()) {
    const time = storedTime(state);
    if (time) times.set(time.id, time.created);
  }
  if (wanted.every((id) => times.has(id))) return times;
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
      const file = path.join(messages, session, name);
      if (!name.endsWith('.json') || storedTime(kept.get(file))) continue;
      const time = messageTime(readMessageFile(file, MESSAGE_FILE_MAX), file);
      if (time) times.set(time.id, time.created);
    }
  }
  return times;
}

/**
 * The part folders (message ids) in the order of their messages' time; a message without a readable
 * time goes after those with one. Ties, and the untimed among themselves, go by id (name order).
 */
export function orderPartFolders(dir: string, names: string[], stored: StoredStates): string[] {
  const times = messageTimes(dirName(dir), stored, names);
  // Each name's time looked up once, not at every comparison (35,800 names at 50k).
  const keyed = names.map((name) => ({ name, time: times.get(name) ?? Infinity }));
  keyed.sort((a, b) => a.time - b.time || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return keyed.map((k) => k.name);
}
