// @ts-check
// Written by `python -m mkdocs_calculators.runtime.twins` from calckit/contracts.py: do not edit (make lint fails when
// it is stale). The JSON between the build (Python) and the browser, typed for the type check (tsconfig.json): what the
// blocks write into their pages and what the book's package answers through the workers. The scripts name these types
// as `import("./contracts.js").Name` (tsconfig's rootDirs put this folder beside assets/); nothing imports this file at
// run time, and it is not written into the site. The shapes only the browser makes (the workers' messages, the progress
// in localStorage) are hand-written in contracts-browser.js, re-exported here.
export * from "./contracts-browser.js";

// Grading (calckit.grading, grading.js)

/**
 * (calckit.contracts.ToleranceData)
 * @typedef {object} Tolerance
 * @property {number} amount in the answer's unit, or, when relative, a fraction of the answer
 * @property {boolean} relative
 */

/**
 * What a reader's function returned, as the grading rule sees it (`grading.returned`).
 * (calckit.contracts.Returned)
 * @typedef {object} Returned
 * @property {"number" | "none" | "nonfinite" | "other"} kind
 * @property {string} shown its repr, cut to a length a reader can read
 * @property {number} [value] for a number
 * @property {string} [type] for another kind of value: its type's name
 */

// Quizzes (calckit.quiz, quiz.js)

/**
 * (calckit.contracts.QuizToleranceData)
 * @typedef {object} QuizTolerance
 * @property {number} amount
 * @property {boolean} relative
 * @property {string} text as readers see it: '± 2%'
 */

/**
 * (calckit.contracts.ChoiceGrading)
 * @typedef {object} ChoiceGrading
 * @property {string} id
 * @property {"single" | "multiple"} kind
 * @property {string} explanation
 * @property {number[]} correct the correct choices, by their place in the author's order
 * @property {string[]} choices each choice's explanation
 * @property {boolean} shuffle
 */

/**
 * (calckit.contracts.SortItemData)
 * @typedef {object} SortItemData
 * @property {string} bucket
 * @property {string} explanation
 */

/**
 * (calckit.contracts.SortGrading)
 * @typedef {object} SortGrading
 * @property {string} id
 * @property {"sort"} kind
 * @property {string} explanation
 * @property {Record<string, string>} buckets id -> text
 * @property {SortItemData[]} items
 * @property {boolean} shuffle
 */

/**
 * (calckit.contracts.NumericGrading)
 * @typedef {object} NumericGrading
 * @property {string} id
 * @property {"numeric"} kind
 * @property {string} explanation
 * @property {string} text with the author's inputs filled in
 * @property {Record<string, unknown>} inputs
 * @property {number} answer
 * @property {string} answer_text
 * @property {string} unit
 * @property {QuizTolerance} tolerance
 * @property {Record<string, unknown> | null} variant the question's source, which the worker reads back for new
 * numbers
 */

/**
 * (calckit.contracts.QuestionGrading)
 * @typedef {ChoiceGrading | SortGrading | NumericGrading} QuestionGrading
 */

/**
 * (calckit.contracts.QuizGrading)
 * @typedef {object} QuizGrading
 * @property {string} id
 * @property {QuestionGrading[]} questions
 */

/**
 * A single or multiple choice question in the page's `data-quiz-data` (quiz_render): its grading data less the
 * explanations, which the page holds as HTML in <template>s. (calckit.contracts.ChoicePageData)
 * @typedef {object} ChoiceData
 * @property {string} id
 * @property {"single" | "multiple"} kind
 * @property {number[]} correct
 * @property {number} choices how many there are
 * @property {boolean} shuffle
 */

/**
 * (calckit.contracts.SortItemPageData)
 * @typedef {object} SortItemPageData
 * @property {string} bucket
 */

/**
 * A sort question in the page's `data-quiz-data`. (calckit.contracts.SortPageData)
 * @typedef {object} SortData
 * @property {string} id
 * @property {"sort"} kind
 * @property {Record<string, string>} buckets id -> text
 * @property {SortItemPageData[]} items
 * @property {boolean} shuffle
 */

/**
 * A numeric question in the page's `data-quiz-data`; `variant` is its source for "new numbers" (sent back as
 * quiz_variant's `question`), or null. (calckit.contracts.NumericPageData)
 * @typedef {object} NumericData
 * @property {string} id
 * @property {"numeric"} kind
 * @property {string[]} values what stands for each `{input}` of the question's text, in order: new numbers replace
 * them
 * @property {Record<string, unknown>} inputs
 * @property {number} answer
 * @property {string} answer_text
 * @property {string} unit
 * @property {QuizTolerance} tolerance
 * @property {Record<string, unknown> | null} variant
 */

/**
 * (calckit.contracts.QuestionPageData)
 * @typedef {ChoiceData | SortData | NumericData} QuestionData
 */

/**
 * A quiz's `data-quiz-data` (quiz_render): the answer key as the page carries it. (calckit.contracts.QuizPageData)
 * @typedef {object} QuizData
 * @property {string} id
 * @property {QuestionData[]} questions
 */

/**
 * A numeric question's new numbers (the calculators' worker's reply to `quiz_variant`).
 * (calckit.contracts.VariantData)
 * @typedef {object} VariantData
 * @property {number} seed
 * @property {Record<string, unknown>} inputs
 * @property {string} text
 * @property {string[]} values what stands for each `{input}` of the text, in order: the page puts these in place
 * @property {number} answer
 * @property {string} answer_text
 */

// Exercises (calckit.exercise, exercise.js, exercise_worker.js)

/**
 * (calckit.contracts.CaseData)
 * @typedef {object} Case
 * @property {Record<string, number>} inputs
 * @property {number | null} expected None: there is no such number for these inputs
 */

/**
 * What `exercise_run.check_code` grades a solution on (the build's). (calckit.contracts.CheckingData)
 * @typedef {object} CheckingData
 * @property {string} function
 * @property {string[]} parameters
 * @property {string[]} floats
 * @property {Case[]} cases
 * @property {Tolerance} tolerance
 */

/**
 * (calckit.contracts.VaryData)
 * @typedef {object} VaryData
 * @property {string} input
 * @property {number} [min]
 * @property {number} [max]
 * @property {number} [step]
 * @property {unknown[]} [choices]
 */

/**
 * How the calculators' worker draws a Check's cases from a calculator's output. (calckit.contracts.CalculatorDraw)
 * @typedef {object} CalculatorDraw
 * @property {string} calculator
 * @property {string} output
 * @property {string[]} parameters
 * @property {Record<string, unknown>} given
 * @property {number} scale
 * @property {number} count
 * @property {VaryData[]} vary
 * @property {Record<string, number>[]} fixed
 */

/**
 * How the calculators' worker draws a Check's cases from a function of the book's package.
 * (calckit.contracts.FunctionDraw)
 * @typedef {object} FunctionDraw
 * @property {string} function_key calckit.answers.function_key of its dotted name: the page does not name it
 * @property {string[]} parameters
 * @property {Record<string, unknown>} given
 * @property {number} count
 * @property {VaryData[]} vary
 * @property {string[]} whole
 * @property {Record<string, number>[]} fixed
 */

/**
 * The calculators' worker's reply to `exercise_cases`. (calckit.contracts.DrawnCases)
 * @typedef {object} DrawnCases
 * @property {Case[]} cases
 * @property {string[]} floats
 */

/**
 * The exercise's `data-exercise-data`: no expected value. (calckit.contracts.ExercisePageData)
 * @typedef {object} ExerciseData
 * @property {string} function
 * @property {string[]} parameters
 * @property {CalculatorDraw | FunctionDraw} draw
 * @property {Tolerance} tolerance
 * @property {string} id
 * @property {string} title
 * @property {string} starter
 * @property {string} solution
 */

/**
 * (calckit.contracts.CodeError)
 * @typedef {object} PythonError
 * @property {string} type
 * @property {string} message
 * @property {number | null} line in the reader's code
 */

/**
 * The exercise worker's reply to Run. (calckit.contracts.RunCodeResult)
 * @typedef {object} RunCodeResult
 * @property {boolean} ok
 * @property {string} stdout
 * @property {PythonError | null} error
 */

/**
 * (calckit.contracts.RaisedData)
 * @typedef {object} RaisedData
 * @property {"raised"} kind
 * @property {PythonError} error
 */

/**
 * The exercise worker's reply to Check: what the reader's function returned for each case, up to a raise.
 * (calckit.contracts.RunCasesResult)
 * @typedef {object} RunCasesResult
 * @property {boolean} ok
 * @property {string} stdout
 * @property {PythonError | null} error
 * @property {(Returned | RaisedData)[]} results
 */

/**
 * (calckit.contracts.CaseFailureData)
 * @typedef {object} CaseFailure
 * @property {number} index
 * @property {Record<string, number>} inputs
 * @property {number | null} expected
 * @property {string | null} got
 * @property {string} reason
 * @property {PythonError | null} error
 */

/**
 * A part of a solution that none of its exercise's cases runs (`exercise_reach`).
 * (calckit.contracts.UnreachedData)
 * @typedef {object} UnreachedData
 * @property {number} line a line of the solution, 1 for its first
 * @property {number | null} to None: no case runs `line`; a line: no case goes on from `line` to it; 0: nor out of
 * its function
 */

/**
 * `exercise_run.check_code`'s verdict on a solution. (calckit.contracts.CheckResult)
 * @typedef {object} CheckResult
 * @property {boolean} ok
 * @property {number} passed
 * @property {number} total
 * @property {string} stdout
 * @property {PythonError | null} error
 * @property {CaseFailure | null} failure
 * @property {UnreachedData[]} unreached when it passes every case: what no case ran
 */

// Calculators (calckit.api.run, calculator.js)

/**
 * (calckit.contracts.FieldErrorData)
 * @typedef {object} FieldError
 * @property {string} field
 * @property {string} rule
 * @property {string} message
 * @property {string} hint
 */

/**
 * A calculator that raised: the cause for a reader, its place and the whole message for an author.
 * (calckit.contracts.FailureData)
 * @typedef {object} Failure
 * @property {string} error
 * @property {string} where
 * @property {string} message
 */

/**
 * (calckit.contracts.OutputData)
 * @typedef {object} Output
 * @property {string} key
 * @property {string} label
 * @property {unknown} value
 * @property {string} text
 * @property {string} note
 */

/**
 * (calckit.contracts.TableData)
 * @typedef {object} Table
 * @property {string} caption
 * @property {string[]} columns
 * @property {string[][]} rows
 */

/**
 * The calculators' worker's reply to `run` (and the build's pre-render): outputs, or what is wrong. The browser
 * reads it as one of two shapes, by `ok` (contracts-browser.js's Computed and Refused).
 * (calckit.contracts.RunReply)
 * @typedef {object} RunReply
 * @property {boolean} ok
 * @property {string} calculator
 * @property {FieldError[]} [errors] when not ok: every bad field
 * @property {Failure} [failure] when not ok with no bad field: the calculator itself raised
 * @property {Record<string, unknown>} [inputs] when ok, each of these
 * @property {Output[]} [outputs]
 * @property {string} [summary]
 * @property {import("./contracts-browser.js").Chart | null} [chart]
 * @property {Table | null} [table]
 */

// Progress (pages/progress_page.py; progress-view.js)

/**
 * A quiz or an exercise as the progress views list it (progress_page.py's item data: `data-progress-item`, and a
 * list of them in a page's `data-progress-here`, with its title there). (calckit.contracts.ProgressItemData)
 * @typedef {object} ProgressItem
 * @property {"quiz" | "exercise"} kind
 * @property {string} key its storage key: quiz:docs/page.md#id
 * @property {string} version changes when the block does
 * @property {number} total questions in a quiz, 1 for an exercise
 * @property {string} [title]
 */

// The service worker (runtime/service_worker.py's build_manifest; service_worker.js)

/**
 * Every file the service worker caches, as [path, content hash], and its caches' names (runtime/layout.py's);
 * `version` hashes the files. (calckit.contracts.Manifest)
 * @typedef {object} Manifest
 * @property {string} version
 * @property {[string, string][]} pages
 * @property {[string, string][]} runtime
 * @property {[string, string][]} onUse files a reader fetches only when they use them
 * @property {string} pagesCache the pages' cache's name, less the site's address and the version that follow it
 * @property {string} runtimeCache the runtime's cache's name, less the site's address that follows it
 */
