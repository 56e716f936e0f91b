// The Claude Code parser's resumable state. It is stored as JSON with each committed offset, so it
// holds only what later lines can still change: open assistant messages, unanswered tool calls,
// a compaction waiting for its summary, and what has been said about each conversation.
import type { EntryRecord } from '../types.js';
import { isObject } from './text.js';

/** Unanswered tool calls kept to settle later; older ones stay 'pending' forever (interrupted). */
export const PENDING_CAP = 300;
/** `summary` lines waiting for their leaf message to show up in this file. */
export const SUMMARY_CAP = 50;

/** One growing part (text or thinking) of the assistant message being streamed. */
export interface Part {
  seq: number;
  body: string;
  sourceId?: string;
  parentSourceId?: string;
  ts?: number;
}

/** The assistant message being written: Claude splits one API message over several lines. */
export interface OpenMessage {
  id: string;
  text?: Part;
  think?: Part;
}

export interface ConvState {
  /** Next entry seq. */
  seq: number;
  /** Parent conversation key (sidechains and sub-agent files). */
  parent?: string;
  /** Identity (sessionId, parentKey, isSubagent) has been emitted. */
  announced?: boolean;
  titleRank: number;
  /** A first prompt has been seen (its title may have lost to a better one). */
  prompted?: boolean;
  /** 0 none, 1 the first assistant reply, 2 a `summary` line written for this conversation. */
  summaryRank: number;
  /** Message id of the rank-1 summary while that message may still grow. */
  summaryMsg?: string;
  createdAt?: number;
  updatedAt?: number;
  cwd?: string;
  msg?: OpenMessage;
}

export interface PendingCall {
  conv: string;
  entry: EntryRecord;
}

export interface ClaudeState {
  v: 1;
  /** The file's own conversation key, once known. */
  key?: string;
  /** Its parent's key, for a sub-agent file. */
  parent?: string;
  convs: Record<string, ConvState>;
  pending: Record<string, PendingCall>;
  /** A compact_boundary whose summary line has not arrived yet. */
  compaction?: PendingCall;
  /** leafUuid → summary text. */
  summaries: Record<string, string>;
  /** The last message line, for a `summary` line written after its leaf. */
  last?: { uuid: string; conv: string };
}

export function freshState(): ClaudeState {
  return { v: 1, convs: {}, pending: {}, summaries: {} };
}

function isClaudeState(v: unknown): v is ClaudeState {
  return isObject(v) && v.v === 1 && isObject(v.convs) && isObject(v.pending) && isObject(v.summaries);
}

/** State from a previous parser of the same file; anything unrecognised starts over. */
export function restoreState(raw: unknown): ClaudeState {
  return isClaudeState(raw) ? structuredClone(raw) : freshState();
}

export function newConv(parent?: string): ConvState {
  return { seq: 0, titleRank: 0, summaryRank: 0, ...(parent ? { parent } : {}) };
}
