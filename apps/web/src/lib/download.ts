/** Hands `blob` to the browser as a download named `fileName` (a file the API answered). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // After the click has started the download: the URL may go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The file name of a Content-Disposition header (`attachment; filename="tenants-….csv"`), or null.
 * The server's names are plain ASCII, so the quoted form is all there is to read.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  const match = header ? /filename="([^"]+)"/i.exec(header) : null;
  return match?.[1] ?? null;
}
