import { SkillNames } from "../src/domain/Skills.ts"
import { startFakeGitHub } from "../test/support/FakeGitHub.ts"
import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

/** A paragraph of plausible skill prose, repeated to a realistic file size (about 4 kB). */
const prose = (title: string) =>
  `# ${title}\n\n` +
  Array.from({ length: 24 }, (_, i) =>
    `${i + 1}. Fetch the governing text with \`GET /api/ecfr/{part}/text/{section}\`, cite it as ` +
    `15 CFR 7xx.y(z), and record the data date; escalate red flags to the empowered official.\n`).join("")

/** 20 skills with 7 extra files each: the size of the real collection, served through the GitHub layer. */
const collection = () => {
  const files: Record<string, string> = {}
  for (const name of SkillNames) {
    files[`skills/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Benchmark skill ${name}.\n` +
      `compatibility: REST or MCP\n---\n\n${prose(name)}`
    for (const [kind, count] of [["templates", 2], ["references", 3], ["prompts", 2]] as const) {
      for (let i = 1; i <= count; i++) files[`skills/${name}/${kind}/${kind}-${i}.md`] = prose(`${name} ${kind} ${i}`)
    }
  }
  return files
}

const sampleOf = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
  const body = new Uint8Array(await response.arrayBuffer())
  const kept: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) kept[name] = value
  })
  return { body, headers: kept }
}

/**
 * The skills endpoints against a bare node:http server returning the same bytes: the list from
 * the response microcache (anonymous), and a bundle and a single file through the handler path
 * (a credential bypasses the microcache). Content comes from a loopback fake GitHub.
 */
export const run = async () => {
  const github = await startFakeGitHub({ owner: "bench", repo: "skills", branch: "main", files: collection() })
  const service = await startService({
    RATE_LIMIT_PER_MINUTE: "0",
    SKILLS_SOURCE: "github:bench/skills@main",
    GITHUB_API_BASE_URL: github.apiUrl,
    GITHUB_RAW_BASE_URL: github.rawUrl
  })
  const credential = { authorization: "Bearer benchmark" }
  const cases = {
    listCached: { path: "/skills", headers: {} },
    bundleHandlerPath: { path: "/skills/svc-classify/bundle", headers: credential },
    fileHandlerPath: { path: "/skills/svc-csl/references/references-2.md", headers: credential }
  }
  const results: Record<string, unknown> = {}
  try {
    for (const [name, { headers, path }] of Object.entries(cases)) {
      const sample = await sampleOf(`${service.url}${path}`, headers)
      const bare = await startBareServer(sample.body, sample.headers)
      try {
        results[name] = {
          path,
          bytes: sample.body.byteLength,
          ...await compare({ url: `${service.url}${path}`, options: { headers } }, { url: `${bare.url}${path}` }, 1)
        }
      } finally {
        await bare.stop()
      }
    }
  } finally {
    await service.stop()
    await github.close()
  }
  return {
    description: "skills endpoints at 32 connections; service vs bare node:http serving the same bytes",
    goal: "service throughput >= 0.6 x bare on the cached list; handler paths reported for comparison",
    ...results
  }
}
