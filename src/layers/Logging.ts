import { Cause, Effect, HashMap, Layer, Logger, LogLevel } from "effect"
import { AccessLog } from "../services/AccessLog.ts"
import { AppConfig, type LogLevelNames } from "../services/AppConfig.ts"

/** Every name `LOG_LEVEL` accepts (checked at start-up), with its Effect level. */
const levels: Record<(typeof LogLevelNames)[number], LogLevel.LogLevel> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Error)

/**
 * Lines are buffered and written in batches (one write per event-loop turn, or when the buffer
 * grows large) so that access logging stays cheap under load; the buffer is flushed at exit.
 */
const makeBatchedWriter = (write: (text: string) => void) => {
  let pending: Array<string> = []
  let bytes = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const text = pending.join("\n")
    pending = []
    bytes = 0
    write(text)
  }
  ;(globalThis as any).process?.on?.("exit", flush)
  return (line: string) => {
    pending.push(line)
    bytes += line.length
    if (bytes > 64 * 1024) flush()
    else if (!scheduled) {
      scheduled = true
      setTimeout(flush, 0)
    }
  }
}

const stdoutLines = makeBatchedWriter((text) => globalThis.console.log(text))
const stderrLines = makeBatchedWriter((text) => globalThis.console.error(text))

/**
 * One flat JSON object per line: `time`, `level`, `msg`, the fields of a trailing object message
 * (`Effect.logInfo("request", { status })`), then the fiber's annotations. Callers decide what is
 * logged; the HTTP layer never logs query strings, bodies or credentials.
 */
const jsonLinesTo = (writeLine: (line: string) => void) =>
  Logger.make(({ annotations, cause, date, logLevel, message }) => {
    const parts = Array.isArray(message) ? message : [message]
    const fields = parts.length > 1 && isFields(parts[parts.length - 1]) ? parts[parts.length - 1] : undefined
    const text = (fields ? parts.slice(0, -1) : parts).map(String).join(" ")
    const line: Record<string, unknown> = { time: date.toISOString(), level: logLevel.label, msg: text }
    if (fields) Object.assign(line, fields)
    for (const [key, value] of HashMap.toEntries(annotations)) line[key] = value
    if (!Cause.isEmpty(cause)) line.cause = Cause.pretty(cause)
    writeLine(JSON.stringify(line))
  })

const levelOf = (name: string) => levels[name as keyof typeof levels] ?? LogLevel.Info

/** Structured JSON lines, filtered by `LOG_LEVEL`; access records share the stream at level INFO. */
const layerWriting = (writeLine: (line: string) => void): Layer.Layer<AccessLog, never, AppConfig> =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) => {
      const minimum = levelOf(config.logLevel)
      const accessEnabled = LogLevel.greaterThanEqual(LogLevel.Info, minimum)
      return Layer.mergeAll(
        Logger.replace(Logger.defaultLogger, jsonLinesTo(writeLine)),
        Logger.minimumLogLevel(minimum),
        Layer.succeed(AccessLog, {
          record: (entry) => {
            if (accessEnabled) {
              writeLine(JSON.stringify({ time: new Date().toISOString(), level: "INFO", msg: "request", ...entry }))
            }
          }
        })
      )
    })
  )

/** Logs on stdout: the servers. */
export const layer = layerWriting(stdoutLines)

/** Logs on stderr: the stdio MCP server, whose stdout carries the protocol. */
export const layerStderr = layerWriting(stderrLines)
