import { describe, expect, it } from 'vitest';
import { DriverRegisterSchema, IdCardNoSchema, PlateNoSchema, RatedLoadKgSchema } from './schemas';
import { idCardCheckChar, idCardProblem, maskIdCard, plateProblem } from './identity';

/** A real-looking number: region 140602 (朔州市朔城区), born 1985-03-17, sequence 123, and its check character. */
function idOf(first17: string) {
  return first17 + idCardCheckChar(first17);
}

describe('居民身份证号 (GB 11643-1999)', () => {
  it('computes the check character of the standard example', () => {
    // the standard's own example 11010519491231002X
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardProblem('11010519491231002X')).toBeNull();
  });

  it('accepts a right number, lower-case x stored as X', () => {
    expect(IdCardNoSchema.parse(' 11010519491231002x ')).toBe('11010519491231002X');
    expect(IdCardNoSchema.parse(idOf('14060219850317123'))).toMatch(/^14060219850317123[\dX]$/);
  });

  it('refuses a wrong check digit, a wrong length, letters and impossible birth dates, in Chinese', () => {
    const right = idOf('14060219850317123');
    const wrongCheck = right.slice(0, 17) + (right[17] === '0' ? '1' : '0');
    expect(idCardProblem(wrongCheck)).toBe('身份证号码校验位不正确');
    expect(idCardProblem(right.slice(0, 17))).toBe('身份证号码须为 18 位');
    expect(idCardProblem(`${right}1`)).toBe('身份证号码须为 18 位');
    expect(idCardProblem('1406021985031712AB')).toBe('身份证号码须为 17 位数字加 1 位数字或 X');
    expect(idCardProblem(idOf('14060219850230123'))).toBe('身份证号码中的出生日期不正确'); // 30 February
    expect(idCardProblem(idOf('14060218990101123'))).toBe('身份证号码中的出生日期不正确');
    expect(idCardProblem(idOf('14060221990101123'))).toBe('身份证号码中的出生日期不正确'); // in the future
    expect(idCardProblem(idOf('04060219850317123'))).toBe('身份证号码的地区码不正确');
    expect(IdCardNoSchema.safeParse(wrongCheck).error?.issues[0]?.message).toBe('身份证号码校验位不正确');
  });

  it('masks all but the first and last four characters', () => {
    expect(maskIdCard('140602198503171234')).toBe('1406**********1234');
  });
});

describe('车牌号', () => {
  it.each(['晋B12345', '晋BD12345', '晋B12345D', '蒙K1234挂', '冀A3F8K2', '苏EF67890', '京A88888'])('accepts %s', (plate) => {
    expect(plateProblem(plate)).toBeNull();
  });

  it('stores the plate upper case without spaces or the middle dot', () => {
    expect(PlateNoSchema.parse('晋b·12345')).toBe('晋B12345');
    expect(PlateNoSchema.parse(' 晋bd 12345 ')).toBe('晋BD12345');
  });

  it.each([
    ['晋B1234', '车牌号须为 7 位（新能源车 8 位），如 晋B12345'],
    ['晋B123456', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'], // 8 characters but not new-energy
    ['港B12345', '车牌号首字须为省份简称，如 晋、蒙、冀'],
    ['晋I12345', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'], // no I or O as the city letter
    ['晋B12O45', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'],
    ['晋BX12345', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'], // new-energy letter must be D or F
    ['晋B1234D5', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'],
    ['晋B12345挂', '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'],
    ['1B12345', '车牌号首字须为省份简称，如 晋、蒙、冀'],
  ])('refuses %s', (plate, message) => {
    expect(PlateNoSchema.safeParse(plate).error?.issues[0]?.message).toBe(message);
  });
});

describe('核定载重', () => {
  it('takes 1 t to 100 t in kg, and says so for a huge or negative value', () => {
    expect(RatedLoadKgSchema.parse(49_000)).toBe(49_000);
    for (const bad of [1e20, -5_000, 999, 100_001]) {
      expect(RatedLoadKgSchema.safeParse(bad).error?.issues[0]?.message).toBe('核定载重须在 1 至 100 吨之间');
    }
    expect(RatedLoadKgSchema.safeParse(1000.5).error?.issues[0]?.message).toBe('核定载重须为整数千克');
  });
});

describe('DriverRegisterSchema', () => {
  it('asks for each photo by its name', () => {
    const result = DriverRegisterSchema.safeParse({
      name: '王建国',
      idCardNo: idOf('14060219850317123'),
      mobile: '13935012345',
      licenceNo: '140602198503171',
      plateNo: '晋B12345',
      vehicleType: 'heavy_semi_trailer',
      ratedLoadKg: 49_000,
    });
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual(['请上传身份证照片', '请上传驾驶证照片', '请上传行驶证照片']);
  });
});
