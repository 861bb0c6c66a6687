// @ts-check
/**
 * The JSON between the build (Python) and the browser, typed once for the type check (tsconfig.json): what the blocks
 * write into their pages, what the book's package answers through the calculators' worker, the messages to and from
 * the workers, and the progress kept in localStorage. Each type names its Python side. The scripts name these types
 * as `import("./contracts.js").Name` (tsconfig's rootDirs put this folder beside assets/); nothing imports this file
 * at run time, and it is not written into the site.
 *
 * The build's own values for the scripts are build-info.d.ts (layout.BuildInfo); the service worker's manifest is
 * Manifest below.
 */
export {};

// Grading (calckit.grading; grading.js).

/** A tolerance: `amount` in the answer's unit or, when `relative`, a fraction of the answer. @typedef {{amount: number, relative: boolean}} Tolerance */

// Calculators: what `calckit.api.run` answers, the worker's "run" (calculator.js shows it).

/** A refused input, beside its field (calckit.errors.InputError.as_dict). @typedef {{field: string, rule: string, message: string, hint: string}} FieldError */
/** @typedef {{key: string, label: string, value: unknown, text: string, note: string}} Output */
/** A calculator's table (calckit.table's as_dict), built as render.py's render_table does. @typedef {{caption: string, columns: string[], rows: string[][]}} Table */
/** A Vega-Lite spec as the book's package wrote it, with the description a screen reader hears. @typedef {{description: string} & Record<string, unknown>} Chart */
/** The calculator's own defect for inputs it accepted (calckit.api.describe_failure). @typedef {{error: string, where: string, message: string}} Failure */
/**
 * @typedef {{ok: true, calculator: string, inputs: Record<string, unknown>, outputs: Output[], summary: string,
 *   chart: Chart | null, table: Table | null}} Computed
 */
/** @typedef {{ok: false, calculator: string, errors: FieldError[], failure?: Failure}} Refused */
/** @typedef {Computed | Refused} RunResult */

// Quizzes: `data-quiz-data` (quiz_render.py's page data: calckit.quiz's grading data less the explanations, which the
// page holds as HTML in <template>s), and a numeric question's "new numbers".

/** `choices`: how many there are. @typedef {{id: string, kind: "single" | "multiple", correct: number[], choices: number, shuffle?: boolean}} ChoiceData */
/** @typedef {{id: string, kind: "sort", buckets: Record<string, string>, items: {bucket: string}[], shuffle?: boolean}} SortData */
/** calckit.quiz.Tolerance.as_dict: the grading rule's, with how the question says it. @typedef {Tolerance & {text: string}} QuizTolerance */
/**
 * What `calckit.api.quiz_variant` answers (calckit.quiz.Variant.as_dict); `values` stand for the text's `{input}`s.
 * @typedef {{seed?: number, inputs: Record<string, unknown>, values: string[], answer: number, answer_text: string}} Variant
 */
/**
 * A numeric question; `variant` is its source for "new numbers" (sent back as quiz_variant's `question`), or null.
 * @typedef {{id: string, kind: "numeric", values: string[], inputs: Record<string, unknown>,
 *   answer: number, answer_text: string, unit: string, tolerance: QuizTolerance, variant: Record<string, unknown> | null,
 *   shuffle?: boolean}} NumericData
 */
/** @typedef {ChoiceData | SortData | NumericData} QuestionData */
/** @typedef {{questions: QuestionData[]}} QuizData */

// Exercises: `data-exercise-data` (exercise_render.py, from calckit.exercise), a Check's cases, and the exercise
// worker's jobs and replies (calckit.exercise_run).

/**
 * `draw` goes back to the calculators' worker as exercise_cases's arguments (calckit.exercise.Exercise.drawing_data).
 * @typedef {{id: string, title: string, function: string, parameters: string[], draw: Record<string, unknown>,
 *   tolerance: Tolerance, starter: string, solution: string}} ExerciseData
 */
/** @typedef {{inputs: Record<string, number>, expected: number | null}} Case */
/** What `calckit.api.exercise_cases` answers: the cases and which parameters are floats. @typedef {{cases: Case[], floats: string[]}} DrawnCases */
/** A Python exception, as the reader sees it (calckit.exercise_run._error). @typedef {{type: string, message: string, line: number | null}} PythonError */
/**
 * A job for exercise_worker.js: run the code, or call its function on each case's inputs.
 * @typedef {{type: "run", code: string}
 *   | {type: "cases", code: string, function: string, parameters: string[], floats: string[], cases: Record<string, number>[]}} ExerciseJob
 */
/**
 * What one case's call returned (calckit.grading.returned), or what it raised.
 * @typedef {{kind: "number", value: number, shown?: string} | {kind: "none" | "nonfinite", shown?: string}
 *   | {kind: "other", type: string, shown?: string}} Returned
 */
/** @typedef {Returned | {kind: "raised", error: PythonError}} CaseResult */
/**
 * The exercise worker's reply to a job (calckit.exercise_run.run_code, call_cases): reader code ran in that worker, so
 * the page reads from it only values of these forms, and grades them itself (exercise_runtime.js, gradeOutputs).
 * @typedef {{ok: boolean, stdout: string, error: PythonError | null, results?: CaseResult[]}} Ran
 */
/**
 * The first case that fails: its inputs, the expected value, what came back (shown) and why it fails.
 * @typedef {{index: number, inputs: Record<string, number>, expected: number | null, got: string, reason: string,
 *   error: PythonError | null}} CaseFailure
 */
/**
 * A Check's verdict, made in the page, as calckit.exercise_run.check_code makes it at build.
 * @typedef {{ok: boolean, passed: number, total: number, stdout: string, error?: PythonError | null,
 *   failure?: CaseFailure | null}} Checked
 */
/** From exercise_worker.js (and "alive" from the first line of its worker). @typedef {{type: "alive"} | {type: "ready", boot: "snapshot" | "plain"} | {type: "failed", error: string} | {type: "done", reply: Ran}} FromExerciseWorker */

// The calculators' worker (worker.js): the protocol runtime.js speaks with it. A call's reply carries its id and the
// page's generation; one for a page the reader has left is dropped.

/** @typedef {"idle" | "runtime" | "package" | "ready" | "failed"} Stage */
/** What each function the worker may call answers (calckit.api.FUNCTIONS). @typedef {{run: RunResult, quiz_variant: Variant, exercise_cases: DrawnCases}} PythonResults */
/** @typedef {keyof PythonResults} PythonFunction */
/**
 * `interrupt`: a shared buffer through which the page stops a call that runs too long, when the page can share memory.
 * @typedef {{type: "boot", controlled: boolean, interrupt: Int32Array | null}
 *   | {type: "call", id: number, generation: number, function: PythonFunction, arguments: Record<string, unknown>}} ToWorker
 */
/**
 * @typedef {{type: "progress", stage: Stage}
 *   | {type: "ready", ms: number, boot: string, stages: Record<string, number>}
 *   | {type: "stored"}
 *   | {type: "failed", error: string}
 *   | {type: "started", id: number}
 *   | {type: "result", id: number, generation: number, json: string, ms: number}
 *   | {type: "error", id: number, generation: number, error: string}} FromWorker
 */

// Progress (progress.js): one entry per block in localStorage, under its key (`quiz:...` or `exercise:...`).

/** A quiz's answer to one question, as saved; `at` is when it last changed. @typedef {{value?: unknown, checked?: boolean, correct?: boolean, variant?: Variant, at?: number}} Answer */
/** @typedef {{version: string, current: number, answers: Record<string, Answer>}} QuizProgress */
/**
 * `code` survives an edit of the exercise; `passed` counts for the version checked; `checked`: the code last checked.
 * @typedef {{version: string, code?: string, passed: boolean, attempts: number, checked?: string}} ExerciseProgress
 */
/**
 * What is stored for one block: a quiz's or an exercise's progress (its key says which), with when it was saved (`at`)
 * and when it was last reset (`resetAt`). Read back from storage, so every field may be missing.
 * @typedef {Partial<QuizProgress> & Partial<ExerciseProgress> & {at?: number, resetAt?: number}} Entry
 */

/**
 * A quiz or an exercise as the progress views list it (progress_page.py's item data: `data-progress-item`, and a
 * list of them in a page's `data-progress-here`, with its title there).
 * @typedef {{kind: "quiz" | "exercise", key: string, version: string, total: number, title?: string}} ProgressItem
 */

/**
 * The file "Export" on the progress page writes and "Import" reads (progress-view.js): the book's name, so that a file
 * from another book is refused, and every entry by block key.
 * @typedef {{format: "calculators-progress", version: number, book: string, exported: string, progress: Record<string, Entry>}} ProgressExport
 */

// The service worker (service_worker.py's build_manifest; service_worker.js).

/** @typedef {[path: string, hash: string]} ManifestEntry */
/** Every file the service worker caches, with its content hash; `version` hashes the rest. @typedef {{version: string, pages: ManifestEntry[], runtime: ManifestEntry[], onUse: ManifestEntry[]}} Manifest */
/** From offline.js: cache every runtime file not cached yet. @typedef {{type: "cache-runtime"}} ToServiceWorker */
