// @ts-check
/**
 * The JSON shapes that only the browser makes, or that it reads more precisely than Python's types can say: the
 * messages to and from the workers, the progress kept in localStorage, and a few views of calckit.contracts' shapes.
 * Written by hand, unlike contracts.js (generated from calckit/contracts.py), which re-exports every typedef here: the
 * scripts import them all from "./contracts.js". A shape that Python writes belongs in calckit/contracts.py instead.
 */
export {};

/**
 * A Vega-Lite spec as the book's package wrote it, with the description a screen reader hears
 * (calckit.contracts.ChartSpec).
 * @typedef {{description: string} & Record<string, unknown>} Chart
 */

// Calculators: calckit.contracts.RunReply, read by its `ok` (calculator.js shows it).

/**
 * @typedef {{ok: true} & Required<Pick<import("./contracts.js").RunReply, "calculator" | "inputs" | "outputs" | "summary"
 *   | "chart" | "table">>} Computed
 */
/**
 * @typedef {{ok: false} & Required<Pick<import("./contracts.js").RunReply, "calculator" | "errors">>
 *   & Pick<import("./contracts.js").RunReply, "failure">} Refused
 */
/** @typedef {Computed | Refused} RunResult */

// Exercises: the exercise worker's jobs and replies (calckit.exercise_run).

/** What one case's call returned, or what it raised. @typedef {import("./contracts.js").Returned | import("./contracts.js").RaisedData} CaseResult */
/**
 * The exercise worker's reply to a job (calckit.exercise_run.run_code, call_cases): reader code ran in that worker, so
 * the page reads from it only values of these forms, and grades them itself (exercise_runtime.js, gradeOutputs).
 * @typedef {import("./contracts.js").RunCodeResult & {results?: CaseResult[]}} Ran
 */
/**
 * A job for exercise_worker.js: run the code, or call its function on each case's inputs.
 * @typedef {{type: "run", code: string}
 *   | {type: "cases", code: string, function: string, parameters: string[], floats: string[], cases: Record<string, number>[]}} ExerciseJob
 */
/**
 * A Check's verdict, made in the page (exercise_runtime.js, gradeOutputs) as calckit.exercise_run.check_code makes it
 * at build, less what no case ran (an author's concern, which the build reports).
 * @typedef {Omit<import("./contracts.js").CheckResult, "unreached">} Checked
 */
/** From exercise_worker.js (and "alive" from the first line of its worker). @typedef {{type: "alive"} | {type: "ready", boot: "snapshot" | "plain"} | {type: "failed", error: string} | {type: "done", reply: Ran}} FromExerciseWorker */

// The calculators' worker (worker.js): the protocol runtime.js speaks with it. A call's reply carries its id and the
// page's generation; one for a page the reader has left is dropped.

/** @typedef {"idle" | "runtime" | "package" | "ready" | "failed"} Stage */
/**
 * What each function the worker may call answers (calckit.api.FUNCTIONS).
 * @typedef {{run: import("./contracts.js").RunResult, quiz_variant: import("./contracts.js").VariantData,
 *   exercise_cases: import("./contracts.js").DrawnCases}} PythonResults
 */
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

// Quizzes.

/**
 * The numbers a numeric question shows: its own (NumericData) or new ones (VariantData, what
 * `calckit.api.quiz_variant` answers); `values` stand for the text's `{input}`s.
 * @typedef {Pick<import("./contracts.js").VariantData, "inputs" | "values" | "answer" | "answer_text"> & {seed?: number}} Variant
 */

// Progress (progress.js): one entry per block in localStorage, under its key (`quiz:...` or `exercise:...`).

/** A quiz's answer to one question, as saved; `at` is when it last changed. @typedef {{value?: unknown, checked?: boolean, correct?: boolean, variant?: import("./contracts.js").Variant, at?: number}} Answer */
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
 * The file "Export" on the progress page writes and "Import" reads (progress-view.js): the book's name, so that a file
 * from another book is refused, and every entry by block key.
 * @typedef {{format: "calculators-progress", version: number, book: string, exported: string, progress: Record<string, Entry>}} ProgressExport
 */

// The service worker (service_worker.js).

/** From offline.js: cache every runtime file not cached yet. @typedef {{type: "cache-runtime"}} ToServiceWorker */
