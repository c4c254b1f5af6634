import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Characters that change how text looks or reads without being seen (issue 26 item 14): Unicode
 * format characters (General Category Cf: zero-width space and joiners, direction overrides and
 * isolates, the byte-order mark, the soft hyphen), everything Unicode says to render as nothing
 * (Default_Ignorable_Code_Point: Hangul fillers, the combining grapheme joiner, variation
 * selectors), controls, lone surrogates and the line and paragraph separators. Two accounts must
 * not look alike, and a name must not turn the text around it backwards.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

/** The emoji and text presentation selectors: they only pick how a visible symbol is drawn (❤️). */
const PRESENTATION_SELECTORS = /[\uFE0E\uFE0F]/g;

/** True when `text` holds a character of INVISIBLE. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * A property of text people read: an e-mail address (`emojiPresentation: false`, nothing
 * invisible at all) or a name shown to others (the two presentation selectors allowed).
 */
export function NoInvisibleCharacters(options: { emojiPresentation?: boolean } = {}, validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'noInvisibleCharacters',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && !hasInvisibleCharacters(options.emojiPresentation ? value.replace(PRESENTATION_SELECTORS, '') : value),
        defaultMessage: (args) => `${args?.property ?? 'text'} must not contain invisible or formatting characters (such as zero-width spaces or direction overrides)`,
      },
    },
    validationOptions,
  );
}
