/** The exact release of each Node line the project is tested on besides the machine's own. */
export const RELEASES: Readonly<Record<'22' | '24', string>>;

/** The directory holding the `node` binary of `line`'s pinned release, installed on first use. */
export function nodeBinDir(line: keyof typeof RELEASES): string;
