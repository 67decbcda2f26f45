// Character tests that the lexer, strptime and ConvertCase share: ASCII only, as Go's are.

/** Whether a UTF-16 code unit (or a byte) is an ASCII digit. */
export const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;

/** Whether `text` has an ASCII digit at `at` (false past its end). */
export const isDigitAt = (text: string, at: number): boolean => isDigitCode(text.charCodeAt(at));
