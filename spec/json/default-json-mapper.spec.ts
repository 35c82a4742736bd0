import {
  Body,
  DefaultJsonMapper,
  GET,
  JsonFormat,
  JsonIgnoreProperties,
  JsonProperty,
  Path,
  POST,
  Priority,
  Provider,
  RestApplication,
  resolveConfig,
  type JsonMapper,
  type JsonMapperCustomizer,
  type JsonMapperProducer,
} from '../../lib';

class Loose {
  name = '';
}

@JsonIgnoreProperties({ ignoreUnknown: false })
class Strict {
  name = '';
  @JsonProperty() note?: string;
}

@JsonIgnoreProperties({ ignoreUnknown: true })
class Lenient {
  name = '';
}

class Event {
  @JsonFormat({ pattern: 'dd/MM/yyyy' }) day = new Date(1984, 7, 8);
  at = new Date(Date.UTC(2021, 0, 1));
}

describe('DefaultJsonMapper', () => {
  it('ignores unknown properties by default and fails on them when configured', () => {
    expect(new DefaultJsonMapper().readValue('{"name":"a","x":1}', Loose)).toBeInstanceOf(Loose);
    const strict = new DefaultJsonMapper().configure('fail-on-unknown-properties', true);
    expect(() => strict.readValue('{"name":"a","x":1}', Loose)).toThrow('x is not a property of Loose');
    expect(() => strict.readValue('{"name":"a","x":1}', Lenient)).not.toThrow();
  });

  it('honours @JsonIgnoreProperties({ ignoreUnknown: false }) per class, @JsonProperty fields being known', () => {
    const mapper = new DefaultJsonMapper();
    expect(() => mapper.readValue('{"name":"a","x":1}', Strict)).toThrow('is not a property of Strict');
    expect(mapper.readValue('{"name":"a","note":"n"}', Strict)).toMatchObject({ name: 'a', note: 'n' });
  });

  it('writes dates as ISO-8601, or as timestamps when configured', () => {
    const value = { at: new Date(Date.UTC(2021, 0, 1)) };
    expect(new DefaultJsonMapper().writeValueAsString(value)).toBe('{"at":"2021-01-01T00:00:00.000Z"}');
    expect(new DefaultJsonMapper().configure('write-dates-as-timestamps', true).writeValueAsString(value)).toBe(
      '{"at":1609459200000}',
    );
  });

  it('writes and reads a @JsonFormat field with its pattern', () => {
    const mapper = new DefaultJsonMapper();
    expect(mapper.writeValueAsString(new Event())).toBe('{"day":"08/08/1984","at":"2021-01-01T00:00:00.000Z"}');
    const read = mapper.readValue('{"day":"09/10/2000"}', Event) as Event;
    expect([read.day.getFullYear(), read.day.getMonth(), read.day.getDate()]).toEqual([2000, 9, 9]);
    expect(() => mapper.readValue('{"day":"2000-10-09"}', Event)).toThrow('does not match the date format');
  });

  it('formats a @JsonFormat field wherever it sits, and writes what JSON.stringify writes where no format applies', () => {
    // Event declares a format, so the field-aware path is live for the whole process.
    const mapper = new DefaultJsonMapper();
    const nested = { events: [{ wrapped: new Event() }], at: new Date(Date.UTC(2021, 0, 1)) };
    expect(mapper.writeValueAsString(nested)).toBe(
      '{"events":[{"wrapped":{"day":"08/08/1984","at":"2021-01-01T00:00:00.000Z"}}],"at":"2021-01-01T00:00:00.000Z"}',
    );
    class Plain {
      at = new Date(Date.UTC(2022, 1, 2));
    }
    class WithToJson {
      toJSON() {
        return { event: new Event() };
      }
    }
    for (const value of [
      [{ a: 1, at: new Date(0) }],
      new Plain(),
      { list: [new Plain()] },
      'text',
      3,
      null,
      Object.create(null),
    ]) {
      expect(mapper.writeValueAsString(value)).toBe(JSON.stringify(value));
    }
    // What toJSON returns is not walked: it takes the field-aware path, which formats it.
    expect(mapper.writeValueAsString(new WithToJson())).toBe(
      '{"event":{"day":"08/08/1984","at":"2021-01-01T00:00:00.000Z"}}',
    );
  });

  it('writes bigints as their text and refuses prototype-poisoning keys', () => {
    expect(new DefaultJsonMapper().writeValueAsString({ n: 10n })).toBe('{"n":"10"}');
    expect(() => new DefaultJsonMapper().readValue('{"__proto__":{"admin":true}}')).toThrow('forbidden key');
  });

  it('uses serializers and deserializers added by customizers', () => {
    class Celsius {
      constructor(readonly degrees: number) {}
    }
    const mapper = new DefaultJsonMapper()
      .addSerializer(Celsius, (c) => `${c.degrees}°C`)
      .addDeserializer(Celsius, (json) => new Celsius(Number.parseFloat(String(json))));
    expect(mapper.writeValueAsString({ t: new Celsius(21) })).toBe('{"t":"21°C"}');
    expect(mapper.readValue('"18.5"', Celsius)).toEqual(new Celsius(18.5));
  });
});

describe('JSON settings in an application', () => {
  const calls: string[] = [];

  @Provider()
  @Priority(20)
  class SecondCustomizer implements JsonMapperCustomizer<DefaultJsonMapper> {
    customize(mapper: DefaultJsonMapper) {
      calls.push(`second:${mapper.isEnabled('write-dates-as-timestamps')}`);
    }
  }

  @Provider()
  @Priority(10)
  class FirstCustomizer implements JsonMapperCustomizer<DefaultJsonMapper> {
    customize(mapper: DefaultJsonMapper) {
      calls.push('first');
      mapper.configure('write-dates-as-timestamps', true);
    }
  }

  @Path('json')
  class JsonResource {
    @GET date() {
      return { at: new Date(0) };
    }

    @POST add(@Body({ type: Loose }) loose: Loose) {
      return loose;
    }
  }

  it('applies customizers in priority order before serving', async () => {
    calls.length = 0;
    const app = RestApplication.build({
      classes: [JsonResource, SecondCustomizer, FirstCustomizer],
      config: resolveConfig({ overrides: {} }),
    });
    expect(calls).toEqual(['first', 'second:true']);
    expect(await (await app.fetch(new Request('http://localhost/json'))).text()).toBe('{"at":0}');
  });

  it('restores the library defaults through framework.json.* settings', async () => {
    const app = RestApplication.build({
      classes: [JsonResource],
      config: resolveConfig({
        overrides: {
          'framework.json.fail-on-unknown-properties': true,
          'framework.json.write-dates-as-timestamps': true,
        },
      }),
    });
    expect(await (await app.fetch(new Request('http://localhost/json'))).text()).toBe('{"at":0}');
    const post = await app.fetch(
      new Request('http://localhost/json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"a","x":1}',
      }),
    );
    expect(post.status).toBe(400);
  });

  it('uses a user-supplied mapper, which receives the customizers to apply itself', async () => {
    let received = 0;
    @Provider()
    class UpperMapperProducer implements JsonMapperProducer {
      produceJsonMapper(customizers: readonly JsonMapperCustomizer[]): JsonMapper {
        received = customizers.length;
        return {
          readValue: (text) => JSON.parse(text),
          writeValueAsString: (value) => JSON.stringify(value).toUpperCase(),
        };
      }
    }
    const app = RestApplication.build({
      classes: [JsonResource, UpperMapperProducer, FirstCustomizer],
      config: resolveConfig({ overrides: {} }),
    });
    expect(received).toBe(1);
    expect(await (await app.fetch(new Request('http://localhost/json'))).text()).toBe(
      '{"AT":"1970-01-01T00:00:00.000Z"}',
    );
  });
});
