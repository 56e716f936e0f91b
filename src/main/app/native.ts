// better-sqlite3 is a native module: node_modules holds the build for Node (tests, CLI), and the app
// loads its own build for Electron's ABI, made by scripts/electron-native.mjs into out/native
// (packaged: resources/native). Keeping them apart means neither breaks the other.
import fs from 'node:fs';
import path from 'node:path';
import { app } from 'electron';

export interface NativeStamp {
  electron: string;
  platform: string;
  arch: string;
}

export function resourcePath(...parts: string[]): string {
  return app.isPackaged ? path.join(process.resourcesPath, ...parts) : path.join(app.getAppPath(), 'resources', ...parts);
}

function nativeDir(): string {
  return app.isPackaged ? path.join(process.resourcesPath, 'native') : path.join(app.getAppPath(), 'out', 'native');
}

/** The Electron build of better-sqlite3, or an explanation a person can act on. */
export function electronSqliteBinding(): { path: string } | { problem: string } {
  const dir = nativeDir();
  const file = path.join(dir, 'better_sqlite3.node');
  if (!fs.existsSync(file)) {
    return { problem: `better-sqlite3 has not been built for Electron (${file} is missing). Run \`node scripts/electron-native.mjs\` (npm start does this first) on a machine that can download Electron's headers.` };
  }
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(dir, 'stamp.json'), 'utf8')) as NativeStamp;
    if (stamp.electron !== process.versions.electron || stamp.arch !== process.arch || stamp.platform !== process.platform) {
      return { problem: `better-sqlite3 in ${dir} was built for Electron ${stamp.electron} (${stamp.platform}-${stamp.arch}), not ${process.versions.electron} (${process.platform}-${process.arch}). Run \`node scripts/electron-native.mjs --force\`.` };
    }
  } catch {
    // No stamp (an older build): try it; a mismatch then fails with the loader's own message.
  }
  return { path: file };
}
