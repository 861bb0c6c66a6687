// The module kinds.js that the build writes beside the browser's scripts (runtime/site.py's mount_table, from each
// registered block kind's `browser`, blocks/hooks.py): entry.js's mount table, declared here for `tsc --checkJs`.
export const kinds: {
  selector: string; // the elements it mounts on: "[data-quiz]"
  module: string; // its module, beside entry.js: "quiz.js"
  mount: string; // the function that module exports, given those elements: "mountQuizzes"
  near: boolean; // mount each as it nears the screen (or is touched, or linked to), not all at once
  offline: boolean; // a page with one keeps Python's runtime for reading offline (offline.js)
}[];
