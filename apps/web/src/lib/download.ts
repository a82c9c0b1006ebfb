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
