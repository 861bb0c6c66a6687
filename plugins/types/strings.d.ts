// Written by `python -m mkdocs_calculators.runtime.twins` from runtime/layout.py's BookStrings: do not edit (make lint
// fails when it is stale). The module strings.js that the build writes beside the browser's scripts (site.py), declared
// for `tsc --checkJs` (tsconfig.json's rootDirs puts this folder beside assets/).
/** the book's language, as the host's theme.language gives it (i18n/) */
export const language: string;
/**
 * the plugin's words for readers in that language, by key: a text with {name} placeholders, or its plural forms by
 * CLDR category (assets/i18n.js looks them up)
 */
export const strings: Record<string, string | Record<string, string>>;
