import { readFileSync } from "node:fs"

const fixture = (path: string) => readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url), "utf8")

/**
 * A part 774 document the size of the real CCL (about 2 MB), made by repeating the
 * entries of the test fixture under fresh ECCNs. Structure and text density match the fixture.
 */
export const generatedCcl = (targetBytes = 2_000_000): { readonly xml: string; readonly entries: number } => {
  const part = fixture("ccl/part-774.xml")
  const open = part.indexOf("<FP-2><B>")
  const close = part.lastIndexOf("</DIV9>")
  const body = part.slice(open, close)
  const starts = [...body.matchAll(/<FP-[12]><B>\d[A-E]\d{3} /g)].map((m) => m.index!)
  const templates = starts.map((start, i) => body.slice(start, starts[i + 1] ?? body.length))
  const chunks: Array<string> = []
  let size = 0
  let n = 0
  while (size < targetBytes) {
    const template = templates[n % templates.length]!
    // The fixture's own entries keep their numbers; the copies take numbers in the x8xx range.
    const eccn = `${Math.floor(n / 500) % 10}${"ABCDE"[Math.floor(n / 100) % 5]}8${String(n % 100).padStart(2, "0")}`
    const chunk = n < templates.length ? template : template.replace(/^(<FP-[12]><B>)\d[A-E]\d{3} /, `$1${eccn} `)
    chunks.push(chunk)
    size += chunk.length
    n++
  }
  return { xml: `${part.slice(0, open)}${chunks.join("")}${part.slice(close)}`, entries: n }
}
