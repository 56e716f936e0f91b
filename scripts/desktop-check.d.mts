// Types for scripts/desktop-check.mjs (a plain script, so `npm start` needs no TypeScript), for the tests.
export declare const DESKTOP_NODE: [number, number];
export declare function electronBinary(electronDir: string, env?: NodeJS.ProcessEnv): string | null;
export declare function nodeIsRecentEnough(version?: string): boolean;
export declare function checkDesktop(options: {
  electronDir: string;
  nodeVersion?: string;
  env?: NodeJS.ProcessEnv;
  say?: (line: string) => void;
}): { ok: boolean; message: string | null };
