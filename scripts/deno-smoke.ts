declare const Deno: { exit(code: number): never }

import app from "../src/deno.ts"

// Answers /health and / through the fetch handler, without a network listener.
for (const path of ["/health", "/"]) {
  const response = await app.fetch(new Request(`http://localhost${path}`))
  const body = await response.json()
  if (response.status !== 200 || typeof body.version !== "string") {
    console.error(`smoke: ${path} answered ${response.status}`)
    Deno.exit(1)
  }
  console.log(`smoke: ${path} ${response.status} ${body.runtime}`)
}
Deno.exit(0)
