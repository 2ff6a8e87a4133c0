import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { fileURLToPath } from "node:url"
import { freePort } from "./support/ports.ts"

const deno = fileURLToPath(new URL("../node_modules/deno/deno", import.meta.url))
const entry = fileURLToPath(new URL("../src/deno.ts", import.meta.url))

describe.skipIf(!existsSync(deno))("Deno entry (src/deno.ts)", () => {
  let url = ""
  let child: ReturnType<typeof spawn>
  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    child = spawn(deno, [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      entry
    ], {
      cwd: tmpdir(),
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "none",
        ECFR_BASE_URL: "http://127.0.0.1:9"
      },
      stdio: "ignore"
    })
    const deadline = Date.now() + 90_000
    for (;;) {
      try {
        await fetch(`${url}/health`)
        return
      } catch {
        if (Date.now() > deadline) throw new Error("the Deno server did not start")
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }, 120_000)
  afterAll(() => {
    child?.kill("SIGTERM")
  })

  it("serves /health and / from the Deno runtime with the same conventions", async () => {
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get("cache-control")).toBe("no-store")
    expect(health.headers.get("api-version")).toBe("2.3.0")
    const healthBody = await health.json()
    expect(healthBody.runtime).toMatch(/^deno \d+\./)
    expect(healthBody.ecfr).toMatch(/^error: /)

    const index = await fetch(`${url}/`)
    const body = await index.json()
    expect(body.version).toBe("2.3.0")
    expect(body.supportedParts).toHaveLength(12)
    expect(index.headers.get("etag")).toMatch(/^W\//)
    const skill = await fetch(`${url}/skills/svc-classify`)
    expect(skill.status).toBe(200) // the bundled skills/ folder is found from the code, not the working directory
    expect(skill.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
    expect(await skill.text()).toMatch(/^---\nname: svc-classify\n/)
    const missing = await fetch(`${url}/nope`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toBe("application/problem+json")
  })
})
