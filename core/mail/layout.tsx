// The look every Cluefeed e-mail shares (light and dark, readable at 4.5:1 or better) and the one
// way an e-mail becomes HTML plus its plain-text twin.
// Each component from its own package: the all-in-one package also loads a syntax highlighter and
// Tailwind, about 0.36 s of CPU at every cold start of a process that sends e-mail.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { render } from '@react-email/render';
import type { ReactElement, ReactNode } from 'react';
import { plainText } from './plain-text';

/** Light colours are inlined; dark ones are applied by class, only by clients that support it. */
export const colours = {
  brand: '#4c2fd6',
  onBrand: '#ffffff',
  light: {
    page: '#f3f2f8',
    card: '#ffffff',
    text: '#1f1d2b',
    muted: '#55526a',
    link: '#4c2fd6',
    rule: '#e2e0ec',
  },
  dark: {
    page: '#0f0e17',
    card: '#1b1a26',
    text: '#ecebf5',
    muted: '#b9b6cc',
    link: '#b8acff',
    rule: '#34324a',
  },
} as const;

const FONT_STACK =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

const { light, dark } = colours;

// Inline styles carry the light theme, so the dark rules need !important to win over them.
// Outlook.com marks its own dark mode with [data-ogsb] (backgrounds) and [data-ogsc] (text).
const darkRules = [
  ['.cf-page', 'background-color', dark.page],
  ['.cf-card', 'background-color', dark.card],
  ['.cf-text', 'color', dark.text],
  ['.cf-muted', 'color', dark.muted],
  ['.cf-link', 'color', dark.link],
  ['.cf-rule', 'border-top-color', dark.rule],
] as const;
const rule = (selector: string, property: string, value: string) =>
  `${selector} { ${property}: ${value} !important; }`;
const DARK_MODE_CSS = [
  ':root { color-scheme: light dark; supported-color-schemes: light dark; }',
  `body { margin: 0; background-color: ${light.page}; }`,
  '@media (prefers-color-scheme: dark) {',
  ...darkRules.map(([selector, property, value]) => `  ${rule(selector, property, value)}`),
  '}',
  ...darkRules.map(([selector, property, value]) =>
    rule(
      `${property === 'background-color' ? '[data-ogsb]' : '[data-ogsc]'} ${selector}`,
      property,
      value,
    ),
  ),
].join('\n');

export function EmailLayout({
  title,
  preview,
  children,
  footer,
}: {
  /** The subject, so a screen reader announces what the message is. */
  title: string;
  /** The line inboxes show after the subject. */
  preview: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: DARK_MODE_CSS }} />
      </Head>
      <Body className="cf-page" style={{ margin: 0, fontFamily: FONT_STACK }}>
        <Preview>{preview}</Preview>
        <Section
          className="cf-page"
          style={{ backgroundColor: light.page, padding: '24px 12px', fontFamily: FONT_STACK }}
        >
          <Container
            className="cf-card"
            style={{
              maxWidth: '600px',
              backgroundColor: light.card,
              borderRadius: '12px',
              padding: '32px 28px',
            }}
          >
            <Text
              className="cf-link"
              style={{ margin: '0 0 24px', fontSize: '18px', fontWeight: 700, color: light.link }}
            >
              Cluefeed
            </Text>
            {children}
            {footer && (
              <>
                <Hr
                  className="cf-rule"
                  style={{ margin: '32px 0 16px', borderTopColor: light.rule }}
                />
                {footer}
              </>
            )}
          </Container>
        </Section>
      </Body>
    </Html>
  );
}

export function EmailHeading({ children }: { children: ReactNode }) {
  return (
    <Heading
      as="h1"
      className="cf-text"
      style={{ margin: '0 0 16px', fontSize: '26px', lineHeight: '32px', color: light.text }}
    >
      {children}
    </Heading>
  );
}

export function EmailText({ children, muted = false }: { children: ReactNode; muted?: boolean }) {
  return (
    <Text
      className={muted ? 'cf-muted' : 'cf-text'}
      style={{
        margin: '0 0 16px',
        fontSize: muted ? '14px' : '16px',
        lineHeight: muted ? '22px' : '26px',
        color: muted ? light.muted : light.text,
      }}
    >
      {children}
    </Text>
  );
}

export function EmailLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="cf-link"
      style={{ color: light.link, textDecorationLine: 'underline', wordBreak: 'break-word' }}
    >
      {children}
    </Link>
  );
}

/** The one call to action of a message: white on the brand colour in both themes. */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button
      href={href}
      style={{
        backgroundColor: colours.brand,
        color: colours.onBrand,
        borderRadius: '8px',
        padding: '14px 24px',
        fontSize: '16px',
        fontWeight: 600,
        textDecoration: 'none',
      }}
    >
      {children}
    </Button>
  );
}

/** Renders once and derives the plain-text part from that HTML, so the two never disagree. */
export async function renderEmail(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: plainText(html) };
}
