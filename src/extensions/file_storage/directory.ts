// The file_storage directory at start: created when missing (create_directory), and then it must be
// a directory otelgate can write, or otelgate does not start: a queue that cannot write would only
// turn every request away later.
import { access, constants, mkdir, stat } from 'node:fs/promises';
import { errorMessage, QueueDirectoryError } from '../../errors.js';

export async function checkStorageDirectory(directory: string, create: boolean, mode: number): Promise<void> {
  if (create) {
    try {
      await mkdir(directory, { recursive: true, mode });
    } catch (error) {
      throw new QueueDirectoryError(directory, `it could not be created: ${errorMessage(error)}`, { cause: error });
    }
  }
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    throw new QueueDirectoryError(directory, missing ? 'it does not exist; create it, or set create_directory: true' : errorMessage(error), { cause: error });
  }
  if (!isDirectory) throw new QueueDirectoryError(directory, 'it is not a directory');
  try {
    await access(directory, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new QueueDirectoryError(directory, `it is not writable: ${errorMessage(error)}`, { cause: error });
  }
}
