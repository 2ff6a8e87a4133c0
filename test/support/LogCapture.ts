import { Logger } from "effect"

/** A logger that keeps each message's text, for tests that check what a start said (and did not say). */
export const captureLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
  )
  return { lines, logger }
}
