// pyodide/pyodide.mjs as runtime.py copies it from the pinned npm package.
export * from "pyodide";
