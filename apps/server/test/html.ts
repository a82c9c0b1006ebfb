import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';

/**
 * HTML as a browser reads it, for the tests of server-rendered HTML (the forms' field groups):
 * parse5 parses by the HTML standard's algorithm, so what it finds is what a page would get when
 * the HTML is injected, whatever the text tries to smuggle in.
 */

export type HtmlElement = DefaultTreeAdapterMap['element'];
type HtmlNode = DefaultTreeAdapterMap['node'];

export interface ParsedHtml {
  root: DefaultTreeAdapterMap['documentFragment'];
  /** Parse errors by code: well-formed HTML has none. */
  errors: string[];
}

export function parseHtml(html: string): ParsedHtml {
  const errors: string[] = [];
  const root = parseFragment(html, { onParseError: (error) => errors.push(error.code) });
  return { root, errors };
}

const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

/** Every element under `node`, in document order. */
export function elements(node: HtmlNode): HtmlElement[] {
  const found: HtmlElement[] = [];
  const visit = (current: HtmlNode) => {
    if (isElement(current)) found.push(current);
    if ('childNodes' in current) for (const child of current.childNodes) visit(child);
    // A <template>'s content is a fragment of its own.
    if (isElement(current) && 'content' in current) visit(current.content as HtmlNode);
  };
  visit(node);
  return found;
}

export const attr = (element: HtmlElement, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name)?.value;

export const hasAttr = (element: HtmlElement, name: string): boolean =>
  element.attrs.some((attribute) => attribute.name === name);

export const classesOf = (element: HtmlElement): string[] =>
  (attr(element, 'class') ?? '').split(/\s+/).filter(Boolean);

/** The text of a node and its descendants, as textContent reads it. */
export function textOf(node: HtmlNode): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (!('childNodes' in node)) return '';
  return node.childNodes.map((child) => textOf(child)).join('');
}

/** The elements under `node` whose attribute `name` is `value`. */
export const withAttr = (node: HtmlNode, name: string, value: string): HtmlElement[] =>
  elements(node).filter((element) => attr(element, name) === value);

/** The one element under `node` whose attribute `name` is `value` (throws unless exactly one). */
export function oneWithAttr(node: HtmlNode, name: string, value: string): HtmlElement {
  const found = withAttr(node, name, value);
  if (found.length !== 1) {
    throw new Error(`Expected one element with ${name}="${value}", found ${found.length}`);
  }
  return found[0]!;
}
