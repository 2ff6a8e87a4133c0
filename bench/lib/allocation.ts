import { GCProfiler, getHeapStatistics } from "node:v8"

/**
 * Starts counting the bytes this process allocates on the JavaScript heap; the function returned
 * stops and answers them: what the heap grew by, plus what every collection in between freed.
 * Garbage is what young-generation collections are paid for, and it depends far less on the
 * machine's load than wall time does.
 */
export const allocationMeter = (): () => number => {
  const profiler = new GCProfiler()
  const before = getHeapStatistics().used_heap_size
  profiler.start()
  return () => {
    const after = getHeapStatistics().used_heap_size
    const collections = profiler.stop()?.statistics ?? []
    const freed = collections.reduce(
      (sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
      0
    )
    return after - before + freed
  }
}
