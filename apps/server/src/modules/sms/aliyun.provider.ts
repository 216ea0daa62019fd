import DysmsapiModule, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import type { Config } from '../../config';
import { outboxProvider, type SmsProvider } from './sms.provider';

// A CommonJS package: Node's ESM loader hands over its whole exports object as the default, a bundler the class.
const Dysmsapi = (DysmsapiModule as unknown as { default?: typeof DysmsapiModule }).default ?? DysmsapiModule;

/** The platform's sign at the head of a text (【CoalX】): the gateway prepends the approved SignName itself. */
const LEADING_SIGN = /^\s*【[^】]*】\s*/;

/**
 * 阿里云短信 through its official SDK (SendSms, API 2017-05-25, signed with ACS3-HMAC-SHA256).
 *
 * The gateway sends approved templates only, never free text: every text goes out through one template
 * (ALIYUN_SMS_TEMPLATE_CODE) whose single variable `content` carries the text without its 【…】 sign, under the
 * approved sign ALIYUN_SMS_SIGN_NAME. The trading centre registers that template once (README "消息通知"): its text
 * is `${content}` and its variable's length limit is lifted, as texts run to 63 characters.
 *
 * One try per call (the SDK's own retries are off): the caller retries with its backoff. A timeout is a failure
 * although the gateway may have sent the text; SendSms has no idempotency key, so the retry may send it twice.
 *
 * `endpoint` is the gateway's host (dysmsapi.aliyuncs.com, over HTTPS), or a URL with a scheme and port for a
 * gateway reached otherwise (http://127.0.0.1:8081 in the tests).
 */
export function aliyunSmsProvider(settings: Config['aliyunSms']): SmsProvider {
  const missing = (
    [
      ['ALIYUN_SMS_ACCESS_KEY_ID', settings.accessKeyId],
      ['ALIYUN_SMS_ACCESS_KEY_SECRET', settings.accessKeySecret],
      ['ALIYUN_SMS_SIGN_NAME', settings.signName],
      ['ALIYUN_SMS_TEMPLATE_CODE', settings.templateCode],
    ] as const
  )
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) throw new Error(`SMS_PROVIDER=aliyun 需要设置 ${missing.join('、')}`);
  const { protocol, host } = endpointOf(settings.endpoint);
  const client = new Dysmsapi(
    new $OpenApiUtil.Config({
      accessKeyId: settings.accessKeyId,
      accessKeySecret: settings.accessKeySecret,
      endpoint: host,
      protocol,
      connectTimeout: 5_000,
      readTimeout: 10_000,
    }),
  );
  return {
    name: 'aliyun',
    async send(_db, _clock, message) {
      const request = new SendSmsRequest({
        phoneNumbers: message.mobile,
        signName: settings.signName,
        templateCode: settings.templateCode,
        templateParam: JSON.stringify({ content: message.content.replace(LEADING_SIGN, '') }),
      });
      let body: { code?: string; message?: string; requestId?: string } | undefined;
      try {
        body = (await client.sendSms(request)).body;
      } catch (err) {
        // the SDK's error for a 4xx/5xx answer carries the gateway's body; a network error has none
        const { statusCode, data, message: text } = err as { statusCode?: number; data?: { Code?: string; Message?: string; RequestId?: string }; message?: string };
        if (statusCode && data?.Code) {
          throw new Error(`阿里云短信网关拒绝请求 (HTTP ${statusCode}): ${data.Code} ${data.Message ?? ''}${data.RequestId ? ` (RequestId ${data.RequestId})` : ''}`, { cause: err });
        }
        throw new Error(`阿里云短信网关请求失败: ${text ?? String(err)}`, { cause: err });
      }
      if (body?.code !== 'OK') {
        throw new Error(`阿里云短信发送失败: ${body?.code ?? '无返回码'} ${body?.message ?? ''}${body?.requestId ? ` (RequestId ${body.requestId})` : ''}`.trim());
      }
    },
  };
}

function endpointOf(endpoint: string): { protocol: 'https' | 'http'; host: string } {
  const match = /^(https?):\/\/([^/]+)\/?$/i.exec(endpoint.trim());
  if (match) return { protocol: match[1]!.toLowerCase() as 'https' | 'http', host: match[2]! };
  if (!endpoint.trim() || /[/\s]/.test(endpoint.trim())) throw new Error(`ALIYUN_SMS_ENDPOINT 无效: ${endpoint}`);
  return { protocol: 'https', host: endpoint.trim() };
}

/** The app's SMS gateway from SMS_PROVIDER: the back office's outbox (default) or 阿里云短信. */
export function smsProviderFromConfig(config: Pick<Config, 'smsProvider' | 'aliyunSms'>): SmsProvider {
  return config.smsProvider === 'aliyun' ? aliyunSmsProvider(config.aliyunSms) : outboxProvider;
}
