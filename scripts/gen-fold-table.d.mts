// Types for scripts/gen-fold-table.mjs, for the test that checks the table against SQLite.
export declare function tokenChars(): string[];
export declare function sqliteFolds(chars: string[]): (string | null)[];
export declare function foldTableSource(chars: string[], folds: (string | null)[]): string;
export declare const FOLD_TABLE_FILE: string;
