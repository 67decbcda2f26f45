// Attribute names as label names, by the rule Prometheus and Loki 3 apply to OTLP.
import { describe, expect, it } from 'vitest';
import { labelName } from '../../../src/exporters/helper/label-name.js';

describe('labelName', () => {
  it.each([
    ['service.name', 'service_name'],
    ['k8s.namespace.name', 'k8s_namespace_name'],
    ['already_fine', 'already_fine'],
    ['http-status', 'http_status'],
    ['2xx', 'key_2xx'],
    ['_private', 'key_private'],
    ['__reserved', '__reserved'],
    ['.dot', 'key_dot'],
    ['ünïcode', 'key_n_code'],
    ['emoji😀x', 'emoji_x'],
    ['', ''],
  ])('%s → %s', (name, label) => {
    expect(labelName(name)).toBe(label);
    expect(labelName(name)).toBe(label);
  });
});
