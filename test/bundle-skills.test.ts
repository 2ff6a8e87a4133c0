import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { httpClientNode } from "../src/layers/Outbound.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import { exportSkills, readSkills } from "../src/services/bundle/Skills.ts"
import { parseSkillsSource } from "../src/services/skills/Source.ts"
import * as StoredCopy from "../src/services/skills/StoredCopy.ts"
import { filesOf, startFakeGitHub } from "./support/FakeGitHub.ts"
import { testConfig } from "./support/TestServer.ts"

/**
 * The skills section of a bundle without the CLI (test/cli/bundle.test.ts runs the whole round
 * trip): what an export takes when GitHub fails, and what an import refuses.
 */
const source = "github:acme/export-skills@main"
const closed = "http://127.0.0.1:9"
const files = filesOf(new URL("./fixtures/skills/", import.meta.url), "skills")

const exportWith = (config: Parameters<typeof testConfig>[0]) =>
  exportSkills.pipe(Effect.provide(Layer.merge(AppConfig.layerWith(testConfig(config)), httpClientNode)))

const decoded = (entry: readonly [string, Uint8Array]) => JSON.parse(new TextDecoder().decode(entry[1]))

describe("mirrored skills in bundles", () => {
  it.live("an instance serving the bundled skills exports no skills section", () =>
    Effect.gen(function*() {
      expect(yield* exportWith({})).toBeUndefined()
    }))

  it.live("with GitHub unreachable, the export takes the stored copy, and fails naming the source without one", () =>
    Effect.gen(function*() {
      const fake = yield* Effect.acquireRelease(
        Effect.promise(() => startFakeGitHub({ owner: "acme", repo: "export-skills", branch: "main", files })),
        (fake) => Effect.promise(fake.close)
      )
      const skillsSource = parseSkillsSource(source)!
      const online = (yield* exportWith({
        skillsSource,
        githubApiBaseUrl: fake.apiUrl,
        githubRawBaseUrl: fake.rawUrl
      }))!
      expect(online.section).toMatchObject({ source, commit: fake.head(), files: 7 })
      const copy = decoded(online.entry)

      const offline = { skillsSource, githubApiBaseUrl: closed, githubRawBaseUrl: closed }
      const failure = yield* Effect.flip(exportWith(offline))
      expect(failure).toMatch(
        /^the skills of SKILLS_SOURCE=github:acme\/export-skills@main could not be read from GitHub \(.+\) and no copy of them is stored$/
      )

      const withCopy = testConfig(offline)
      yield* StoredCopy.write(withCopy.dataDir!, copy)
      const fromCopy = (yield* exportWith(withCopy))!
      expect(fromCopy.section).toEqual(online.section)
      expect(decoded(fromCopy.entry)).toEqual(copy)

      // a copy stored for another source is not taken
      const other = testConfig({ ...offline, skillsSource: parseSkillsSource("github:acme/other@main")! })
      yield* StoredCopy.write(other.dataDir!, copy)
      expect(yield* Effect.flip(exportWith(other))).toContain("no copy of them is stored")
    }).pipe(Effect.scoped))

  it.live("an import refuses a skills file that disagrees with the manifest or is not a GitHub source", () =>
    Effect.gen(function*() {
      const copy = {
        source,
        commit: "0".repeat(40),
        fetched_at: "2026-11-26T00:00:00.000Z",
        files: [{ path: "svc-csl/SKILL.md", blob: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", text: "" }]
      }
      const section = { source, commit: copy.commit, files: 1, path: "skills/github-mirror.json" }
      const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
      // the empty blob's git id: the one file matches
      expect(yield* readSkills(section, bytes(copy))).toEqual(copy)
      expect(yield* Effect.flip(readSkills({ ...section, files: 2 }, bytes(copy)))).toBe(
        "skills/github-mirror.json does not match the manifest's skills section"
      )
      expect(yield* Effect.flip(readSkills(section, bytes({ ...copy, source: "bundled" })))).toContain(
        "bundled is not a GitHub skills source"
      )
      expect(yield* Effect.flip(readSkills(section, bytes({ ...copy, files: "none" })))).toBe(
        "skills/github-mirror.json has an unexpected shape"
      )
    }))
})
