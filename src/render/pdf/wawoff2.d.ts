/** wawoff2 (Google's woff2 decoder compiled to WebAssembly) ships no types. */
declare module "wawoff2/decompress.js" {
  const decompress: (woff2: Uint8Array) => Promise<Uint8Array>
  export default decompress
}
