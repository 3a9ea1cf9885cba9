import { cpus, loadavg, totalmem } from 'node:os';

/** Facts about the machine a run happened on, for RESULTS.md. */
export interface MachineInfo {
  node: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  /** 1, 5 and 15 minute load averages. */
  load: [number, number, number];
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return {
    node: process.version,
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    load: [one, five, fifteen].map((value) => Math.round(value * 100) / 100) as [number, number, number],
  };
}
