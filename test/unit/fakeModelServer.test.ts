/**
 * The fake model server's JSON-schema-driven reply generator: values it makes from zod 4
 * `z.toJSONSchema` output must parse with the same zod schema, and be deterministic.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  defaultResponder,
  estimateTokens,
  generateFromJsonSchema,
  type ChatRequestInfo,
  type JsonSchema,
} from '../support/fakeModelServer';

function roundTrip<T extends z.ZodType>(schema: T, maxDepth?: number): z.output<T> {
  const value = generateFromJsonSchema(z.toJSONSchema(schema) as JsonSchema, maxDepth === undefined ? {} : { maxDepth });
  // Through JSON, like a model reply.
  return schema.parse(JSON.parse(JSON.stringify(value)));
}

describe('generateFromJsonSchema', () => {
  test('nested objects, arrays with minItems, enums, nullable and optional fields', () => {
    const Schema = z.object({
      video: z.object({
        title: z.string().min(3).max(40),
        language: z.enum(['en', 'zh']),
        durationSeconds: z.number().int().positive(),
      }),
      markers: z
        .array(
          z.object({
            kind: z.enum(['claim', 'question', 'quote']),
            text: z.string(),
            quote: z.string().nullable(),
            speaker: z.object({ name: z.string() }).nullable(),
            confidence: z.number().min(0).max(1),
            tags: z.array(z.string()).min(1).max(3),
            note: z.string().optional(),
          }),
        )
        .min(3),
    });
    const value = roundTrip(Schema);
    assert.equal(value.markers.length, 3);
    assert.ok(value.markers.every((m) => m.tags.length >= 1));
    // Nullable object branches are filled in (not null) while shallow.
    assert.notEqual(value.markers[0]?.speaker, null);
    // Items of an array of enums/strings differ from one another.
    assert.notEqual(value.markers[0]?.kind, value.markers[1]?.kind);
  });

  test('is deterministic', () => {
    const schema = z.toJSONSchema(z.object({ a: z.array(z.object({ b: z.string(), c: z.number() })).min(2) })) as JsonSchema;
    assert.deepEqual(generateFromJsonSchema(schema), generateFromJsonSchema(schema));
    assert.deepEqual(generateFromJsonSchema(schema), {
      a: [
        { b: 'fake b', c: 0 },
        { b: 'fake b 2', c: 1 },
      ],
    });
  });

  test('numeric bounds, exclusive bounds and multipleOf', () => {
    roundTrip(
      z.object({
        positive: z.number().positive(),
        negativeInt: z.number().int().negative(),
        between: z.number().gt(0.1).lt(0.5),
        steps: z.number().min(0.5).max(2).multipleOf(0.25),
        big: z.int().min(1_000_000),
        safe: z.int(),
      }),
    );
  });

  test('string formats, patterns and lengths', () => {
    const value = roundTrip(
      z.object({
        id: z.uuid(),
        mail: z.email(),
        at: z.iso.datetime(),
        day: z.iso.date(),
        link: z.url(),
        timestamp: z.string().regex(/^\d{1,2}:\d{2}(:\d{2})?$/),
        code: z.string().regex(/^[A-Z]{3}-\d{4}$/),
        shouty: z.string().uppercase(),
        framed: z.string().startsWith('<<').endsWith('>>'),
        short: z.string().length(4),
        long: z.string().min(50),
      }),
    );
    assert.match(value.code, /^[A-Z]{3}-\d{4}$/);
  });

  test('tuples, records, discriminated unions, literals, intersections and defaults', () => {
    const value = roundTrip(
      z.object({
        pair: z.tuple([z.string(), z.number().int()]),
        counts: z.record(z.string(), z.number()),
        flags: z.record(z.enum(['en', 'zh']), z.boolean()),
        event: z.discriminatedUnion('type', [
          z.object({ type: z.literal('cut'), at: z.number() }),
          z.object({ type: z.literal('fade'), from: z.number(), to: z.number() }),
        ]),
        union: z.union([z.string(), z.number()]),
        version: z.literal(2),
        both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.boolean() })),
        mode: z.string().default('fast'),
      }),
    );
    assert.deepEqual(Object.keys(value.flags).sort(), ['en', 'zh']);
    assert.equal(value.version, 2);
    assert.equal(value.mode, 'fast');
  });

  test('recursive schemas ($ref into $defs) stay finite', () => {
    interface Topic {
      title: string;
      children: Topic[];
      parent?: Topic | null;
    }
    const Topic: z.ZodType<Topic> = z.object({
      title: z.string(),
      get children() {
        return z.array(Topic);
      },
      get parent() {
        return Topic.nullable().optional();
      },
    });
    const Tree = z.object({ root: Topic });
    const value = roundTrip(Tree);
    assert.equal(value.root.title, 'fake title');
    const shallow = roundTrip(Tree, 2);
    assert.deepEqual(shallow.root.children, []);
  });

  test('hand-written draft-07 style schemas: type arrays and anyOf with null', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        maybe: { type: ['integer', 'null'], minimum: 3 },
        either: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['x', 'y'] }] },
        list: { type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 2 },
      },
      required: ['maybe', 'either', 'list'],
      additionalProperties: false,
    };
    assert.deepEqual(generateFromJsonSchema(schema), { maybe: 3, either: 'x', list: [true, true] });
    assert.equal(generateFromJsonSchema(true), null);
  });
});

describe('fake model helpers', () => {
  test('estimateTokens counts CJK characters one each and other text per four characters', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('视频'), 2);
    assert.equal(estimateTokens('视频 abc'), 3);
  });

  test('defaultResponder: text, JSON mode and schema replies', () => {
    const base: ChatRequestInfo = {
      protocol: 'openai',
      model: 'fake-model',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ignored' },
        { role: 'user', content: `second ${'x'.repeat(100)}` },
      ],
      stream: false,
      schema: undefined,
      jsonMode: false,
      maxTokens: undefined,
      promptTokens: 1,
      body: {},
      seq: 1,
    };
    assert.equal(defaultResponder(base), `fake reply to: second ${'x'.repeat(53)}`);
    assert.deepEqual(JSON.parse(defaultResponder({ ...base, jsonMode: true })), { reply: `fake reply to: second ${'x'.repeat(53)}` });
    const Schema = z.object({ answer: z.string(), sources: z.array(z.number().int()).min(1) });
    const reply = defaultResponder({ ...base, jsonMode: true, schema: z.toJSONSchema(Schema) as JsonSchema });
    assert.deepEqual(Schema.parse(JSON.parse(reply)), { answer: 'fake answer', sources: [0] });
  });
});
