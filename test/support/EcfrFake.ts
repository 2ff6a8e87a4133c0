import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { FakeReply, FakeRoute } from "./FakeUpstream.ts"

/** Saved eCFR API responses we author, in the `npm run sync -- --from` layout. */
export const ecfrFixtures = fileURLToPath(new URL("../fixtures/ecfr/", import.meta.url))

const notFound: FakeReply = {
  status: 404,
  headers: { "content-type": "application/json" },
  body: "{\"error\":\"No matching content found\"}"
}

const file = (path: string, contentType: string): FakeReply =>
  existsSync(path) ? { headers: { "content-type": contentType }, body: readFileSync(path) } : notFound

const json = "application/json; charset=utf-8"

interface SearchFixture {
  readonly results: ReadonlyArray<unknown>
  readonly meta: Record<string, unknown>
}

const readSearch = (path: string): SearchFixture => JSON.parse(readFileSync(path, "utf8"))

/** The saved results of a part (`search/title-T-part-P.json`), or of every saved part of the title. */
const savedResults = (dir: string, title: string | null, part: string | null): SearchFixture => {
  const folder = join(dir, "search")
  if (part) {
    const path = join(folder, `title-${title}-part-${part}.json`)
    return existsSync(path) ? readSearch(path) : { results: [], meta: {} }
  }
  const files = readdirSync(folder).filter((name) => name.startsWith(`title-${title}-part-`))
  const results = files.flatMap((name) => readSearch(join(folder, name)).results) as Array<{ score: number }>
  return { results: results.sort((a, b) => b.score - a.score), meta: {} }
}

/** eCFR search paginates the saved results the way eCFR does. */
const search = (dir: string, url: URL): FakeReply => {
  const all = savedResults(dir, url.searchParams.get("hierarchy[title]"), url.searchParams.get("hierarchy[part]"))
  const perPage = Number(url.searchParams.get("per_page") ?? 20)
  const page = Number(url.searchParams.get("page") ?? 1)
  const results = all.results.slice((page - 1) * perPage, page * perPage)
  const body = JSON.stringify({
    results,
    meta: {
      ...all.meta,
      current_page: page,
      total_pages: Math.ceil(all.results.length / perPage),
      total_count: all.results.length
    }
  }).replace(/</g, "\\u003c").replace(/>/g, "\\u003e")
  return { headers: { "content-type": json }, body }
}

/**
 * The eCFR API over a directory of saved responses: titles, structure, full (XML), versions and
 * search, with the `?part=` and `hierarchy[...]` parameters the service sends.
 */
export const ecfrRoutes = (dir: string = ecfrFixtures): FakeRoute => (_request, url) => {
  const path = url.pathname
  const part = url.searchParams.get("part")
  if (path === "/api/versioner/v1/titles.json") return file(join(dir, "titles.json"), json)
  if (path === "/api/search/v1/results") return search(dir, url)
  let match = /^\/api\/versioner\/v1\/structure\/\d{4}-\d{2}-\d{2}\/title-(\d+)\.json$/.exec(path)
  if (match && part) return file(join(dir, `title-${match[1]}`, `part-${part}.structure.json`), json)
  match = /^\/api\/versioner\/v1\/full\/\d{4}-\d{2}-\d{2}\/title-(\d+)\.xml$/.exec(path)
  if (match && part) return file(join(dir, `title-${match[1]}`, `part-${part}.xml`), "application/xml")
  match = /^\/api\/versioner\/v1\/versions\/title-(\d+)\.json$/.exec(path)
  if (match && part) return file(join(dir, `title-${match[1]}`, `part-${part}.versions.json`), json)
  return undefined
}

/** Upstream request counts by kind, from the fake's per-path hit counters. */
export const ecfrHits = (hits: ReadonlyMap<string, number>) => {
  const count = (pattern: RegExp) =>
    [...hits].filter(([path]) => pattern.test(path)).reduce((total, [, n]) => total + n, 0)
  return {
    titles: count(/\/titles\.json$/),
    structure: count(/\/structure\//),
    full: count(/\/full\//),
    versions: count(/\/versions\//),
    search: count(/\/search\//)
  }
}

/** A fresh DATA_DIR for one test. */
export const tempDataDir = (): string => mkdtempSync(join(tmpdir(), "ecfr-test-"))

/** Pretends the stored snapshot of a part was last confirmed by eCFR `hours` ago. */
export const ageSnapshot = (dataDir: string, part: number, hours: number) => {
  const path = join(dataDir, "ecfr", `part-${part}`, "meta.json")
  const meta = JSON.parse(readFileSync(path, "utf8"))
  writeFileSync(path, JSON.stringify({ ...meta, verifiedAt: new Date(Date.now() - hours * 3_600_000).toISOString() }))
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export const eventually = async <A>(check: () => Promise<A | undefined>, timeoutMs = 10_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error("condition not reached in time")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
