import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

/**
 * A cached JSON GET (`GET /`) through the full middleware stack (request id, rate limiting,
 * response cache, problem handling, conditional GET, standard headers, JSON access log to stdout)
 * against a bare node:http server returning the same bytes and headers. A second case sends a
 * credential, which bypasses the response cache and runs the HttpApi handler on every request.
 */
export const run = async () => {
  const service = await startService({ RATE_LIMIT_PER_MINUTE: "1000000" })
  const sample = await fetch(`${service.url}/`)
  const body = new Uint8Array(await sample.arrayBuffer())
  const headers: Record<string, string> = {}
  sample.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers[name] = value
  })
  const bare = await startBareServer(body, headers)
  try {
    const cached = await compare({ url: `${service.url}/` }, { url: `${bare.url}/` })
    const handlerPath = await compare(
      { url: `${service.url}/`, options: { headers: { authorization: "Bearer benchmark" } } },
      { url: `${bare.url}/` },
      1
    )
    return {
      description: "GET / (1.9 kB JSON) at 32 connections; service vs bare node:http serving the same bytes",
      goal: "service throughput >= 0.6 x bare",
      cachedGet: cached,
      handlerPathGet: handlerPath
    }
  } finally {
    await bare.stop()
    await service.stop()
  }
}
