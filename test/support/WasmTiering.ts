/**
 * A V8 flag for the test processes (vitest's workers and the `ecds` processes the tests start):
 * V8 compiles WebAssembly with its baseline compiler and recompiles each function that has run
 * about 1.8 MB of code with its optimizing one. PGlite's start-up alone crosses that for many of
 * its functions, so each short-lived process spent about a second of CPU optimizing code it
 * hardly ran again; with a hundred times the budget only the really hot functions (a long query,
 * a font decompression) are optimized. It changes only when V8 optimizes, never what code does.
 */
export const wasmTieringFlag = "--wasm-tiering-budget=180000000"
