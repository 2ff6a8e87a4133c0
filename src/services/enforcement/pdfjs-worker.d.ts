/** pdf.js's worker module ships no types; it is imported only for its side effect (`globalThis.pdfjsWorker`). */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown
}
