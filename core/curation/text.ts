// Text as a card and a prompt need it: feed HTML to plain text, long text cut at a word.
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const shorter = text.slice(0, max - 1);
  const space = shorter.lastIndexOf(' ');
  return `${(space > max / 2 ? shorter.slice(0, space) : shorter).trimEnd()}…`;
}
