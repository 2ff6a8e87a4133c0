import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startService } from "./lib/processes.ts"

const seconds = Number(process.env.BENCH_OAUTH_GUESSING_SECONDS ?? 30)

const challenge = () => createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url")

/**
 * The password-guessing attack of issue 19 against the service with its default limits: one client
 * address, one e-mail address, as fast as it can, each guess on a freshly minted pending request
 * (`GET /oauth/authorize`, then the form). Counts the guesses whose password was checked (the
 * "not correct" page) against those refused unchecked (a locked sign-in, or the address over its
 * OAuth request budget). The address tried need not exist: the throttle answers the same.
 */
export const run = async () => {
  // a store of its own: the counts of an earlier run would start this one locked
  const dataDir = mkdtempSync(join(tmpdir(), "bench-oauth-guessing-"))
  const service = await startService({ DATA_DIR: dataDir })
  try {
    const registered = await fetch(`${service.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "bench",
        redirect_uris: ["http://127.0.0.1:9/callback"],
        application_type: "native",
        token_endpoint_auth_method: "none"
      })
    })
    const clientId = (await registered.json() as { client_id: string }).client_id
    const counts = { checked: 0, lockedSignIn: 0, requestBudget: 0, other: 0 }
    const started = performance.now()
    while (performance.now() - started < seconds * 1000) {
      const page = await fetch(
        `${service.url}/oauth/authorize?${new URLSearchParams({
          response_type: "code",
          client_id: clientId,
          redirect_uri: "http://127.0.0.1:9/callback",
          code_challenge: challenge(),
          code_challenge_method: "S256"
        })}`
      )
      const html = await page.text()
      const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1]
      if (page.status === 429) {
        counts.requestBudget++
        continue
      }
      if (handle === undefined) {
        counts.other++
        continue
      }
      const answer = await fetch(`${service.url}/oauth/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          handle,
          email: "victim@example.com",
          password: randomBytes(8).toString("hex"),
          decision: "allow"
        })
      })
      const text = await answer.text()
      if (answer.status === 200 && text.includes("not correct")) counts.checked++
      else if (answer.status === 429 && text.includes("Too many sign-in attempts")) counts.lockedSignIn++
      else if (answer.status === 429) counts.requestBudget++
      else counts.other++
    }
    const elapsed = (performance.now() - started) / 1000
    return {
      description: `${seconds} s of sequential guessing at one e-mail address from one client address, ` +
        "a fresh pending request per guess, default limits",
      goal: "far below the 7 checked guesses/s of issue 19",
      seconds: Math.round(elapsed * 10) / 10,
      ...counts,
      checkedPerSecond: Math.round((counts.checked / elapsed) * 1000) / 1000
    }
  } finally {
    await service.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
