import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readArchive, sha256Hex, writeArchive } from "../../src/services/bundle/Archive.ts"
import { readBundle } from "../../src/services/bundle/Bundle.ts"
import { parseSkillsSource } from "../../src/services/skills/Source.ts"
import { offlineEnv, runCli } from "../support/CliEnv.ts"
import { ecfrFixtures, ecfrRoutes } from "../support/EcfrFake.ts"
import { fixtureParts, writeSavedResponses } from "../support/EcfrFixtures.ts"
import { syntheticPartRoute } from "../support/EcfrSynthetic.ts"
import { seedSmallArchive } from "../support/EnforcementBundle.ts"
import { type FakeGitHub, filesOf, startFakeGitHub } from "../support/FakeGitHub.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { fixtureText } from "../support/ScreeningApp.ts"
import { startServer } from "../support/TestServer.ts"
import { dataDirStore } from "../support/TestStore.ts"

/** Title-15 parts without an authored fixture are served as small synthetic parts. */
const syntheticParts = [732, 734, 742, 744, 748, 762, 772]

/** The exporting instance mirrors its skills from a GitHub repository. */
const skillsSource = "github:acme/export-skills@main"
const closed = "http://127.0.0.1:9"
const skillsPath = "skills/github-mirror.json"

/** A copy of the bundle with its entries changed, the manifest rewritten to match (checksums included). */
const rewritten = async (
  from: string,
  to: string,
  change: (manifest: Record<string, unknown>, entries: Map<string, Uint8Array>) => void
) => {
  const entries = new Map(await readArchive(from))
  const manifest = JSON.parse(new TextDecoder().decode(entries.get("manifest.json")))
  change(manifest, entries)
  manifest.files = Object.fromEntries(
    [...entries].filter(([path]) => path !== "manifest.json").map((
      [path, bytes]
    ) => [path, { sha256: sha256Hex(bytes), bytes: bytes.byteLength }])
  )
  entries.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifest)))
  await writeArchive(to, [...entries])
  return to
}

describe("data bundles: export from the upstreams, import on a machine without any", () => {
  let ecfr: FakeUpstream
  let csl: FakeUpstream
  let github: FakeGitHub
  const work = mkdtempSync(join(tmpdir(), "ecds-bundle-"))
  const bundle = join(work, "ecds-bundle.tar.gz")
  let cslUrl: string
  beforeAll(async () => {
    const saved = writeSavedResponses(fixtureParts())
    cpSync(join(ecfrFixtures, "title-22"), join(saved, "title-22"), { recursive: true })
    // routes are tried in order: the synthetic parts first, then the saved responses (404 for the rest)
    ecfr = await startFakeUpstream([
      ...syntheticParts.map((part) => syntheticPartRoute(part, 20_000)),
      ecfrRoutes(saved)
    ])
    csl = await startFakeUpstream([() => ({ headers: { "content-type": "application/json" }, body: fixtureText })])
    cslUrl = `${csl.url}/consolidated.json`
    github = await startFakeGitHub({
      owner: "acme",
      repo: "export-skills",
      branch: "main",
      files: filesOf(new URL("../fixtures/skills/", import.meta.url), "skills")
    })
  })
  afterAll(async () => {
    await ecfr.close()
    await csl.close()
    await github.close()
  })

  it("exports the parts, the list, the archive and mirrored skills, then serves them offline", async () => {
    const exporting = offlineEnv({
      ECFR_BASE_URL: ecfr.url,
      CSL_BULK_URL: cslUrl,
      SKILLS_SOURCE: skillsSource,
      GITHUB_API_BASE_URL: github.apiUrl,
      GITHUB_RAW_BASE_URL: github.rawUrl
    })
    // the exporting machine's archive: three documents, two with PDFs, one marked removed
    await Effect.runPromise(seedSmallArchive(dataDirStore(exporting.DATA_DIR!), exporting.DATA_DIR!))
    const exported = await runCli(["sync", "--export", bundle], exporting)
    expect(exported.status, exported.stderr).toBe(0)
    expect(exported.stdout).toMatch(/wrote .*ecds-bundle\.tar\.gz: 12 eCFR parts \(issues 2026-11-10, 2026-11-18\)/)
    expect(exported.stdout).toContain("the screening list and 3 enforcement documents (with their PDFs)")
    // every file of the fixture repository's skills folder but svc-csl/notes.txt, which is outside the layout
    const skillFiles = Object.keys(filesOf(new URL("../fixtures/skills/", import.meta.url), "skills")).length - 1
    expect(exported.stdout).toContain(
      `; ${skillFiles} skill files mirrored from ${skillsSource} (commit ${github.head().slice(0, 12)})`
    )
    const entries = await readArchive(bundle)
    const manifest = JSON.parse(new TextDecoder().decode(entries.get("manifest.json")))
    expect(manifest).toMatchObject({
      format: "ecds-bundle/1",
      screening_list: { origin: cslUrl },
      enforcement: { documents: 3, paths: ["enforcement/documents-0001.json"], pdfs: "included" },
      skills: { source: skillsSource, commit: github.head(), files: skillFiles, path: skillsPath }
    })
    expect(manifest.ecfr.parts).toHaveLength(12)
    // 36 part files, the list, one file of document rows, the two PDFs and the skills
    expect(Object.keys(manifest.files)).toHaveLength(41)

    // the importing machine has no upstream at all
    await ecfr.close()
    await csl.close()
    const env = offlineEnv({ CSL_BULK_URL: cslUrl, SKILLS_SOURCE: skillsSource })
    const imported = await runCli(["sync", "--import", bundle], env)
    expect(imported.status, imported.stderr).toBe(0)
    expect(imported.stdout).toContain("12 eCFR parts, the screening list and 3 enforcement documents")
    expect(imported.stdout).toContain(`skill files mirrored from ${skillsSource}`)
    expect(imported.stdout).not.toContain("set SKILLS_SOURCE")

    const server = await startServer({
      config: {
        dataDir: env.DATA_DIR!,
        cslBulkUrl: cslUrl,
        rateLimitPerMinute: 0,
        skillsSource: parseSkillsSource(skillsSource)!,
        githubApiBaseUrl: closed,
        githubRawBaseUrl: closed
      },
      store: dataDirStore(env.DATA_DIR!)
    })
    try {
      // GitHub cannot be reached: the mirror serves the skills the bundle carried
      const skills = await server.get("/skills")
      expect(skills.status).toBe(200)
      expect((await skills.json()).skills.map((skill: { name: string }) => skill.name)).toEqual([
        "svc-classify",
        "svc-csl"
      ]) // svc-setup's front matter names another folder: mirrored, not published, as from GitHub
      const reference = await server.get("/skills/svc-csl/references/adjudication.md")
      expect(reference.status).toBe(200)
      expect(await reference.text()).toBe(
        readFileSync(new URL("../fixtures/skills/svc-csl/references/adjudication.md", import.meta.url), "utf8")
      )
      const archive = await server.get("/api/enforcement/docs?q=thermal%20imaging")
      expect(archive.status).toBe(200)
      expect((await archive.json()).documents.map((d: { id: string }) => d.id)).toEqual(["bis-case:E0001"])
      const text = await server.get("/api/ecfr/740/plain/740.1")
      expect(text.status).toBe(200)
      expect(text.headers.get("x-ecfr-issue-date")).toBe("2026-11-18")
      expect(await text.text()).toContain("§ 740.1 Introduction.")
      for (
        const path of [
          "/api/ecfr/121",
          "/api/ecfr/732/sections",
          "/api/eccn/3A001",
          "/api/country-chart?country=China"
        ]
      ) {
        expect((await server.get(path)).status, path).toBe(200)
      }
      let screening = await server.get("/api/csl?name=Rustam%20Karimov")
      for (let attempt = 0; screening.status === 503 && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        screening = await server.get("/api/csl?name=Rustam%20Karimov")
      }
      expect(screening.status).toBe(200)
      expect((await screening.json()).matches[0].name).toBe("KARIMOV, Rustam Valerievich")
    } finally {
      await server.close()
    }
  }, 300_000)

  it("refuses a damaged bundle, naming the file, and writes nothing", async () => {
    const entries = new Map(await readArchive(bundle))
    entries.set("ecfr/title-15/part-740.xml", new TextEncoder().encode("<DIV5 N=\"740\">altered</DIV5>"))
    const damaged = join(work, "damaged.tar.gz")
    await writeArchive(damaged, [...entries])
    const env = offlineEnv()
    const refused = await runCli(["sync", "--import", damaged], env)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      "is damaged; nothing was imported: ecfr/title-15/part-740.xml does not match its SHA-256"
    )
    expect(existsSync(join(env.DATA_DIR!, "ecfr"))).toBe(false)
  }, 120_000)

  it("imports a bundle made before skills travelled; refuses skills that do not match their git ids", async () => {
    // an older bundle: no skills section, no skills file
    const older = await rewritten(bundle, join(work, "older.tar.gz"), (manifest, entries) => {
      delete manifest.skills
      entries.delete(skillsPath)
    })
    const env = offlineEnv({ SKILLS_SOURCE: skillsSource })
    const imported = await runCli(["sync", "--import", older], env)
    expect(imported.status, imported.stderr).toBe(0)
    expect(imported.stdout).not.toContain("skill files")
    expect(existsSync(join(env.DATA_DIR!, "skills"))).toBe(false)

    // a skill's text changed and the bundle's checksums recomputed: its git blob id still tells
    const altered = await rewritten(bundle, join(work, "altered-skills.tar.gz"), (_manifest, entries) => {
      const copy = JSON.parse(new TextDecoder().decode(entries.get(skillsPath)))
      copy.files[0].text += "\nInjected line.\n"
      entries.set(skillsPath, new TextEncoder().encode(JSON.stringify(copy)))
    })
    const refused = await Effect.runPromise(Effect.flip(readBundle(altered)))
    expect(refused.message).toMatch(/skills file .* does not match its git object id; nothing was imported/)
  }, 120_000)

  it("refuses an export without all 12 parts, naming the missing ones", async () => {
    const partial = await runCli(
      ["sync", "--export", join(work, "partial.tar.gz"), "--from", ecfrFixtures],
      offlineEnv()
    )
    expect(partial.status).toBe(1)
    expect(partial.stderr).toContain("a bundle holds all 12 parts; not stored: part 732")
    expect(existsSync(join(work, "partial.tar.gz"))).toBe(false)
  }, 120_000)
})
