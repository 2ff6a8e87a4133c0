import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { spawnSync } from "node:child_process"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as Ecfr from "../../src/services/ecfr/Live.ts"
import * as PartFills from "../../src/services/ecfr/PartFills.ts"
import * as Sync from "../../src/services/ecfr/Sync.ts"
import { EcfrSource } from "../../src/services/EcfrSource.ts"
import { cliCommand } from "../support/CliEnv.ts"
import { ecfrFixtures, ecfrRoutes, tempDataDir } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { startServer } from "../support/TestServer.ts"

describe("ecds sync", () => {
  let fake: FakeUpstream
  beforeAll(async () => {
    fake = await startFakeUpstream([ecfrRoutes()])
  })
  afterAll(() => fake.close())

  const runSync = (dataDir: string, options: Sync.SyncOptions) => {
    const progress: Array<number> = []
    return Sync.sync(options, (result) => progress.push(result.part)).pipe(
      Effect.provide(
        Layer.mergeAll(
          AppConfig.layerWith({ dataDir, ecfrBaseUrl: fake.url }),
          FetchHttpClient.layer,
          PartFills.layerAlone
        )
      ),
      Logger.withMinimumLogLevel(LogLevel.None),
      Effect.map((results) => ({ results, progress })),
      Effect.runPromise
    )
  }

  const serveOffline = async (dataDir: string) => {
    const server = await startServer({ config: { ecfrBaseUrl: "http://127.0.0.1:9", dataDir, rateLimitPerMinute: 0 } })
    try {
      const response = await server.get("/api/ecfr/740/plain/740.1")
      const usml = await server.get("/api/ecfr/121")
      return {
        status: [response.status, usml.status],
        stale: response.headers.get("x-data-stale"),
        text: await response.text()
      }
    } finally {
      await server.close()
    }
  }

  it("downloads the parts from eCFR into DATA_DIR, reporting each part", async () => {
    const dataDir = tempDataDir()
    const before = fake.requests.length
    const { progress, results } = await runSync(dataDir, { parts: [740, 121, 774] })
    expect(progress.sort()).toEqual([121, 740, 774])
    expect(results.map((r) => [r.part, r.outcome])).toEqual([[121, "updated"], [740, "updated"], [774, "failed"]])
    expect(results[1]!.detail).toBe("eCFR issue 2026-11-18")
    expect(results[2]!.detail).toContain("404")
    const downloads = fake.requests.slice(before).filter((r) => r.url.includes("/full/")).map((r) => r.url)
    expect(downloads.filter((url) => url.endsWith("?part=740") || url.endsWith("?part=121")).sort()).toEqual([
      "/api/versioner/v1/full/2026-11-10/title-22.xml?part=121",
      "/api/versioner/v1/full/2026-11-18/title-15.xml?part=740"
    ])
    const offline = await serveOffline(dataDir)
    expect(offline.status).toEqual([200, 200])
    expect(offline.stale).toBeNull()
    expect(offline.text).toContain("§ 740.1 Introduction.")
  })

  it("imports saved eCFR responses from a directory without network access", async () => {
    const dataDir = tempDataDir()
    const before = fake.requests.length
    const { results } = await runSync(dataDir, { from: ecfrFixtures, parts: [740, 121] })
    expect(results.map((r) => r.outcome)).toEqual(["updated", "updated"])
    expect(fake.requests.length).toBe(before)
    expect((await serveOffline(dataDir)).status).toEqual([200, 200])
  })

  const ecds = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
    spawnSync(cliCommand[0], [...cliCommand.slice(1), "sync", ...args], {
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 60_000
    })

  it("runs as a command: from a directory, the parts it holds, and a summary on stdout", () => {
    const run = ecds(["--from", ecfrFixtures], { DATA_DIR: tempDataDir() })
    expect(run.status).toBe(0)
    expect(run.stderr).toContain("holds no part 732, 734, 738, 742, 744, 746, 748, 762, 772, 774; syncing the others")
    expect(run.stdout).toContain("part 740: updated (eCFR issue 2026-11-18)")
    expect(run.stdout).toContain("part 121: updated (eCFR issue 2026-11-10)")
    expect(run.stdout).toContain("2 of 2 parts stored")
  }, 180_000)

  it("exits 1 naming each part that could not be stored", () => {
    const run = ecds(["--from", ecfrFixtures, "--parts", "740,774"], { DATA_DIR: tempDataDir() })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/^part 774: failed \(title-15\/\S+ is missing\)$/m)
    expect(run.stdout).toContain("1 of 2 parts stored")
    expect(run.stderr).toContain("error: 1 part(s) could not be stored")
  }, 180_000)

  it("refuses a missing directory once, and unsupported parts with the valid ones", () => {
    const missing = ecds(["--from", "/nonexistent"], { DATA_DIR: tempDataDir() })
    expect(missing.status).toBe(1)
    expect(missing.stderr.trim()).toBe("error: /nonexistent: no such directory")
    const bad = ecds(["--parts", "740,999"])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain(
      "ecds sync: --parts must list supported parts (121, 732, 734, 738, 740, 742, 744, 746, 748, 762, 772, 774); " +
        "not supported: 999"
    )
  }, 180_000)

  it("offers the same saved responses as an in-memory EcfrSource layer for fixtures", async () => {
    const layer = Ecfr.layerFromDirectory(ecfrFixtures).pipe(
      Layer.provide(AppConfig.layerWith({ ecfrBaseUrl: "http://127.0.0.1:9" })),
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(DataGeneration.layer)
    )
    const [xml, usml] = await Effect.gen(function*() {
      const source = yield* EcfrSource
      return [yield* source.partXml(740), yield* source.sections(121)] as const
    }).pipe(Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.None), Effect.scoped, Effect.runPromise)
    expect(xml.value).toContain("<DIV5 N=\"740\" TYPE=\"PART\"")
    expect(xml).toMatchObject({ issueDate: "2026-11-18", stale: false })
    expect(usml.value.sections.map((s) => s.identifier)).toEqual(["121.0", "121.1", "121.2-121.16"])
  })
})
