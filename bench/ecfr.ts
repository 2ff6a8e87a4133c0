import { mkdtempSync, rmSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ecfrRoutes } from "../test/support/EcfrFake.ts"
import { syntheticPartRoute } from "../test/support/EcfrSynthetic.ts"
import { startFakeUpstream } from "../test/support/FakeUpstream.ts"
import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

const largePart = 774
const largePartBytes = 2_000_000

const median = (values: Array<number>) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const round = (n: number) => Math.round(n * 10) / 10

const timed = async (url: string) => {
  const started = performance.now()
  const response = await fetch(url)
  const body = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
  return { ms: performance.now() - started, response, body }
}

/** The raw bytes (not decoded) and headers of one response, for a bare server that answers the same. */
const sample = (url: string, headers: Record<string, string>) =>
  new Promise<{ body: Uint8Array; headers: Record<string, string> }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk) => chunks.push(chunk))
      response.on("end", () => {
        const kept: Record<string, string> = {}
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string" && !["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) {
            kept[name] = value
          }
        }
        resolve({ body: new Uint8Array(Buffer.concat(chunks)), headers: kept })
      })
    }).on("error", reject)
  })

/**
 * The eCFR mirror against a loopback fake eCFR serving a synthetic 2 MB part 774 and the part 740
 * fixture. Cold: the first `/api/ecfr/774/sections` of a service with an empty store (download,
 * parse, render, store, encode) against the bare download of the part XML from the fake, and the
 * first request after a restart (read from disk). Warm: `/api/ecfr/774/sections` and
 * `/api/ecfr/740/text/740.1` at 32 connections against a bare node:http server sending the same
 * bytes, through the response microcache and, with a credential, through the handler path.
 */
export const run = async () => {
  const fake = await startFakeUpstream([syntheticPartRoute(largePart, largePartBytes), ecfrRoutes()])
  const dataDirs: Array<string> = []
  const service = async (dataDir?: string) => {
    const dir = dataDir ?? mkdtempSync(join(tmpdir(), "ecfr-bench-"))
    dataDirs.push(dir)
    return { dir, child: await startService({ ECFR_BASE_URL: fake.url, DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: "0" }) }
  }
  try {
    const xmlUrl = `${fake.url}/api/versioner/v1/full/2026-11-18/title-${15}.xml?part=${largePart}`
    const cold: Array<number> = []
    const restart: Array<number> = []
    const download: Array<number> = []
    let warmDir = ""
    for (let i = 0; i < 3; i++) {
      download.push((await timed(xmlUrl)).ms)
      const { child, dir } = await service()
      cold.push((await timed(`${child.url}/api/ecfr/${largePart}/sections`)).ms)
      await child.stop()
      const again = await service(dir)
      restart.push((await timed(`${again.child.url}/api/ecfr/${largePart}/sections`)).ms)
      await again.child.stop()
      warmDir = dir
    }

    const { child } = await service(warmDir)
    const sectionsUrl = `${child.url}/api/ecfr/${largePart}/sections`
    const textUrl = `${child.url}/api/ecfr/740/text/740.1`
    const sections = await sample(sectionsUrl, {})
    const sectionsGzip = await sample(sectionsUrl, { "accept-encoding": "gzip" })
    const text = await sample(textUrl, {})
    const bareSections = await startBareServer(sections.body, sections.headers)
    const bareText = await startBareServer(text.body, text.headers)
    try {
      return {
        description: "eCFR mirror against a loopback fake eCFR (synthetic 2 MB part 774); warm runs at 32 " +
          "connections against bare node:http servers sending the same bytes and headers. Warm runs use " +
          "identity encoding: autocannon handles compressed (high-entropy) bodies an order of magnitude " +
          "slower than text, which would measure the load generator",
        goal: "warm p99 under 10 ms at 32 connections",
        coldFill: {
          partXmlBytes: (await timed(xmlUrl)).body.byteLength,
          sectionsBytes: sections.body.byteLength,
          sectionsGzipBytes: sectionsGzip.body.byteLength,
          emptyStoreMs: round(median(cold)),
          bareDownloadMs: round(median(download)),
          fromDiskAfterRestartMs: round(median(restart)),
          ratioToBareDownload: round(median(cold) / median(download))
        },
        warmSections: await compare({ url: sectionsUrl }, { url: bareSections.url }),
        warmSectionsHandlerPath: await compare(
          { url: sectionsUrl, options: { headers: { authorization: "Bearer benchmark" } } },
          { url: bareSections.url },
          1
        ),
        warmText: await compare({ url: textUrl }, { url: bareText.url })
      }
    } finally {
      await bareSections.stop()
      await bareText.stop()
      await child.stop()
    }
  } finally {
    await fake.close()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  }
}
