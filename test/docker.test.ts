import { describe, expect, it } from "@effect/vitest"
import { execFileSync, spawnSync } from "node:child_process"
import { repoRoot } from "./support/CliEnv.ts"

/** Docker needs an engine, not only the client: without one the suite is skipped, saying why. */
const engine = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], { encoding: "utf8", timeout: 20_000 })
const dockerAvailable = engine.status === 0 && engine.stdout.trim() !== ""
if (!dockerAvailable) {
  console.warn("Dockerfile suite skipped: no Docker engine on this machine (`docker info` failed).")
}

const docker = (...args: Array<string>) =>
  execFileSync("docker", args, { cwd: repoRoot, encoding: "utf8", timeout: 900_000 })

describe.skipIf(!dockerAvailable)("Dockerfile", () => {
  it("builds, runs as a non-root user and turns healthy", async () => {
    const tag = `ecds-test:${process.pid}`
    docker("build", "-t", tag, ".")
    const container = docker("run", "-d", "-P", "-e", "ECFR_BASE_URL=http://127.0.0.1:9", tag).trim()
    try {
      expect(docker("exec", container, "id", "-u").trim()).not.toBe("0")
      let health = ""
      for (let attempt = 0; attempt < 60 && health !== "healthy"; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 2000))
        health = docker("inspect", "--format", "{{.State.Health.Status}}", container).trim()
      }
      expect(health).toBe("healthy")
      const port = docker("port", container, "8787/tcp").trim().split(":").at(-1)
      const response = await fetch(`http://127.0.0.1:${port}/health`)
      expect(response.status).toBe(200)
    } finally {
      docker("rm", "-f", container)
      docker("rmi", "-f", tag)
    }
  }, 900_000)
})
