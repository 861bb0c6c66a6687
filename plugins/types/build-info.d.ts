// The module build-info.js that the build writes beside the browser's scripts (runtime.py, from layout.py's
// BuildInfo, which says what each value is): declared here for `tsc --checkJs` (tsconfig.json's rootDirs puts this
// folder beside assets/). tests/unit/test_runtime_layout.py holds the names to BuildInfo's.
export const wheels: string[];
export const bookPackage: string;
export const snapshot: string;
export const snapshotFor: string;
export const exerciseSnapshot: string;
export const exerciseSnapshotFor: string;
export const cached: Record<string, string>;
export const missing: string[];
export const serviceWorker: string;
export const timeLimit: number;
