import { startRenderBackend } from "../src/render/Backend.ts"

// `npm run render-backend`: a rendering backend on PORT (default 8788) for RENDER_BACKEND_URL.
const backend = await startRenderBackend({
  port: Number(process.env.PORT ?? 8788),
  host: process.env.HOST ?? "127.0.0.1"
})
console.log(`rendering backend on ${backend.url}`)
