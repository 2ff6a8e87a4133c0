import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type FakeUpstream, startFakeUpstream } from "./support/FakeUpstream.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

/** Real upstream responses kept beside the project (see ../shared/data/SOURCES.md); absent in some checkouts. */
const shared = fileURLToPath(new URL("../../shared/data/", import.meta.url))
const federalRegisterSample = `${shared}federal-register/documents-search.week-2026-08-17.json`
const ecfrSample = `${shared}ecfr/api-samples/search_results.json`
const present = existsSync(federalRegisterSample) && existsSync(ecfrSample)

describe.skipIf(!present)(
  `research adapters read real upstream samples${present ? "" : " (skipped: ../shared/data is not present)"}`,
  () => {
    let upstream: FakeUpstream
    let server: RunningServer
    const read = (path: string) => JSON.parse(readFileSync(path, "utf8"))
    beforeAll(async () => {
      const serve = (path: string) => ({
        headers: { "content-type": "application/json" },
        body: readFileSync(path, "utf8")
      })
      upstream = await startFakeUpstream([
        (_request, url) => url.pathname === "/api/v1/documents.json" ? serve(federalRegisterSample) : undefined,
        (_request, url) => url.pathname === "/api/search/v1/results" ? serve(ecfrSample) : undefined
      ])
      server = await startServer({ config: { federalRegisterBaseUrl: upstream.url, ecfrBaseUrl: upstream.url } })
    })
    afterAll(async () => {
      await server.close()
      await upstream.close()
    })

    it("maps every record of a recorded Federal Register search", async () => {
      const sample = read(federalRegisterSample)
      const body = await (await server.get("/api/federal-register?query=sample")).json()
      expect(body.error).toBeUndefined()
      expect(body.total).toBe(sample.count)
      expect(body.results.map((r: { document_number: string }) => r.document_number)).toEqual(
        sample.results.map((r: { document_number: string }) => r.document_number)
      )
      expect(body.results[0].agencies).toContain("Commerce Department")
    })

    it("maps every record of a recorded eCFR search", async () => {
      const sample = read(ecfrSample)
      const body = await (await server.get("/api/cfr-search?query=sample")).json()
      expect(body.error).toBeUndefined()
      expect(body.total).toBe(sample.meta.total_count)
      expect(body.count).toBe(sample.results.length)
      for (const result of body.results) {
        expect(result.url).toMatch(/\/current\/title-9\/section-\d+\.\d+$/)
        expect(result.excerpt).not.toMatch(/<(?!\/?strong>)/)
        expect(result.heading).not.toContain("<")
      }
    })
  }
)
