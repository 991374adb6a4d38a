// A file_info that ignores `page`: every page answered with the same first page of files, as a
// proxy or an older bk-repo might. Armed on the emulator as a fault.
import type { Emulator } from '../../emulator/server.ts';

/** Every file_info page of this emulator answers with the same 100 files. */
export function repeatFirstPage(emu: Emulator): void {
  const records = Array.from({ length: 100 }, (_, i) => ({
    name: `f-${i}.bin`,
    fullPath: `/p-app/b/app/f-${i}.bin`,
    size: 1,
    folder: false,
    artifactoryType: 'PIPELINE',
  }));
  emu.faults.add({ pattern: /file_info$/, times: Infinity, fault: { kind: 'patch', data: { records } } });
}
