// The baseline: node:http answering every request with fixed bytes (no framework at all).
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = readFileSync(process.env.BARE_BODY_FILE ?? "")
const headers = JSON.parse(process.env.BARE_HEADERS ?? "{}")
createServer((_request, response) => {
  response.writeHead(200, headers)
  response.end(body)
}).listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1")
