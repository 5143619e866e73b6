/** The folder where Marker Research keeps everything it writes inside a corpus. */
export const STORAGE_DIR = '.marker-research';
