// A queue's directory before anything else: it must exist (it is created) and take files, or the
// queue does not open, with the step that failed. A full disk is not such a failure.
import { join } from 'node:path';
import { errorMessage, QueueDirectoryError } from '../errors.js';
import type { QueueDisk } from './disk.js';

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | undefined)?.code;

/** Makes sure `directory` exists and takes files, or says why not. */
export async function checkDirectory(disk: QueueDisk, directory: string, mode: number | undefined): Promise<void> {
  let step = 'it could not be created';
  try {
    await disk.mkdir(directory, mode);
    step = 'no file can be created in it';
    const probe = join(directory, 'probe.tmp');
    const file = await disk.open(probe, 'w');
    await file.close();
    await disk.remove(probe);
  } catch (error) {
    const code = codeOf(error);
    // A full disk is no reason not to open: the queue has entries to deliver, which frees room.
    if (code === 'ENOSPC' || code === 'EDQUOT') return;
    throw new QueueDirectoryError(directory, `${step}: ${errorMessage(error)}`, { cause: error });
  }
}
