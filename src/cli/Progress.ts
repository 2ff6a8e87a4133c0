import { Presets, SingleBar } from "cli-progress"

/**
 * Progress of a long job on stderr: a bar on a terminal, otherwise a line at every tenth of the
 * way (logs and CI stay readable). The total may only be known once the job has started.
 */
export interface Progress {
  readonly update: (done: number, total: number, status?: string) => void
  readonly stop: () => void
}

export const start = (label: string, unit: string): Progress => {
  if (process.stderr.isTTY === true) {
    let bar: SingleBar | undefined
    return {
      update: (done, total, status = "") => {
        if (bar === undefined) {
          bar = new SingleBar(
            { format: `${label} [{bar}] {value}/{total} ${unit} | {status}`, stream: process.stderr },
            Presets.shades_classic
          )
          bar.start(total, 0, { status })
        }
        bar.setTotal(total)
        bar.update(done, { status })
      },
      stop: () => bar?.stop()
    }
  }
  let shownTenth = -1
  return {
    update: (done, total, status = "") => {
      const tenth = total === 0 ? 10 : Math.floor((done * 10) / total)
      if (tenth === shownTenth) return
      shownTenth = tenth
      process.stderr.write(`${label}: ${done}/${total} ${unit}${status === "" ? "" : ` (${status})`}\n`)
    },
    stop: () => undefined
  }
}
