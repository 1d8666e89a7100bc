var oe,g,Ue,$t,M,Te,De,Ie,pe,Z,V,He,he,de,me,yt,te={},ne=[],gt=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,se=Array.isArray;function H(e,t){for(var n in t)e[n]=t[n];return e}function fe(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function ie(e,t,n){var o,s,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?oe.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return ee(e,l,o,s,null)}function ee(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Ue,__i:-1,__u:0};return s==null&&g.vnode!=null&&g.vnode(r),r}function ae(e){return e.children}function z(e,t){this.props=e,this.context=t}function F(e,t){if(t==null)return e.__?F(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?F(e):null}function vt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=H({},t);r.__v=t.__v+1,g.vnode&&g.vnode(r),be(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??F(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,qe(o,r,s),t.__e=t.__=null,r.__e!=n&&Le(r)}}function Le(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Le(e)}function Re(e){(!e.__d&&(e.__d=!0)&&M.push(e)&&!re.__r++||Te!=g.debounceRendering)&&((Te=g.debounceRendering)||De)(re)}function re(){try{for(var e,t=1;M.length;)M.length>t&&M.sort(Ie),e=M.shift(),t=M.length,vt(e)}finally{M.length=re.__r=0}}function Me(e,t,n,o,s,r,l,c,u,i,p){var _,a,d,h,N,f,w=o&&o.__k||ne,y=t.length;for(u=wt(n,t,w,u,y),_=0;_<y;_++)(d=n.__k[_])!=null&&(a=d.__i!=-1&&w[d.__i]||te,d.__i=_,f=be(e,d,a,s,r,l,c,u,i,p),h=d.__e,d.ref&&a.ref!=d.ref&&(a.ref&&$e(a.ref,null,d),p.push(d.ref,d.__c||h,d)),N==null&&h!=null&&(N=h),4&d.__u?(u=We(d,u,e),a.__e&&(a.__e=null)):typeof d.type=="function"&&f!==void 0?u=f:h&&(u=h.nextSibling),d.__u&=-7);return n.__e=N,u}function wt(e,t,n,o,s){var r,l,c,u,i,p=n.length,_=p,a=0;for(e.__k=new Array(s),r=0;r<s;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=ee(null,l,null,null,null):se(l)?l=e.__k[r]=ee(ae,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=ee(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+a,l.__=e,l.__b=e.__b+1,c=null,(i=l.__i=kt(l,n,u,_))!=-1&&(_--,(c=n[i])&&(c.__u|=2)),c==null||c.__v==null?(i==-1&&(s>p?a--:s<p&&a++),typeof l.type!="function"&&(l.__u|=4)):i!=u&&(i==u-1?a--:i==u+1?a++:(i>u?a--:a++,l.__u|=4))):e.__k[r]=null;if(_)for(r=0;r<p;r++)(c=n[r])!=null&&(2&c.__u)==0&&(c.__e==o&&(o=F(c)),je(c,c));return o}function We(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=We(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=F(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function kt(e,t,n,o){var s,r,l,c=e.key,u=e.type,i=t[n],p=i!=null&&(2&i.__u)==0;if(i===null&&c==null||p&&c==i.key&&u==i.type)return n;if(o>(p?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((i=t[l=s>=0?s--:r++])!=null&&(2&i.__u)==0&&c==i.key&&u==i.type)return l}return-1}function Ae(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||gt.test(t)?n:n+"px"}function X(e,t,n,o,s){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Ae(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||Ae(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(He,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[V]=o[V]:(n[V]=he,e.addEventListener(t,r?me:de,r)):e.removeEventListener(t,r?me:de,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Ne(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[Z]==null)t[Z]=he++;else if(t[Z]<n[V])return;return n(g.event?g.event(t):t)}}}function be(e,t,n,o,s,r,l,c,u,i){var p,_,a,d,h,N,f,w,y,U,B,W,K,xe,Q,_e,D=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[c=t.__e=n.__e]),(p=g.__b)&&p(t);e:if(typeof D=="function"){_=l.length;try{if(y=t.props,U=D.prototype&&D.prototype.render,B=(p=D.contextType)&&o[p.__c],W=p?B?B.props.value:p.__:o,n.__c?w=(a=t.__c=n.__c).__=a.__E:(U?t.__c=a=new D(y,W):(t.__c=a=new z(y,W),a.constructor=D,a.render=Pt),B&&B.sub(a),a.state||(a.state={}),a.__n=o,d=a.__d=!0,a.__h=[],a._sb=[]),U&&a.__s==null&&(a.__s=a.state),U&&D.getDerivedStateFromProps!=null&&(a.__s==a.state&&(a.__s=H({},a.__s)),H(a.__s,D.getDerivedStateFromProps(y,a.__s))),h=a.props,N=a.state,a.__v=t,d)U&&D.getDerivedStateFromProps==null&&a.componentWillMount!=null&&a.componentWillMount(),U&&a.componentDidMount!=null&&a.__h.push(a.componentDidMount);else{if(U&&D.getDerivedStateFromProps==null&&y!==h&&a.componentWillReceiveProps!=null&&a.componentWillReceiveProps(y,W),t.__v==n.__v||!a.__e&&a.shouldComponentUpdate!=null&&a.shouldComponentUpdate(y,a.__s,W)===!1){t.__v!=n.__v&&(a.props=y,a.state=a.__s,a.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(O){O&&(O.__=t)}),ne.push.apply(a.__h,a._sb),a._sb=[],a.__h.length&&l.push(a),c=F(n);break e}a.componentWillUpdate!=null&&a.componentWillUpdate(y,a.__s,W),U&&a.componentDidUpdate!=null&&a.__h.push(function(){a.componentDidUpdate(h,N,f)})}if(a.context=W,a.props=y,a.__P=e,a.__e=!1,K=g.__r,xe=0,U)a.state=a.__s,a.__d=!1,K&&K(t),p=a.render(a.props,a.state,a.context),ne.push.apply(a.__h,a._sb),a._sb=[];else do a.__d=!1,K&&K(t),p=a.render(a.props,a.state,a.context),a.state=a.__s;while(a.__d&&++xe<25);a.state=a.__s,a.getChildContext!=null&&(o=H(H({},o),a.getChildContext())),U&&!d&&a.getSnapshotBeforeUpdate!=null&&(f=a.getSnapshotBeforeUpdate(h,N)),Q=p!=null&&p.type===ae&&p.key==null?Oe(p.props.children):p,c=Me(e,se(Q)?Q:[Q],t,n,o,s,r,l,c,u,i),a.base=t.__e,t.__u&=-161,a.__h.length&&l.push(a),w&&(a.__E=a.__=null)}catch(O){if(l.length=_,t.__v=null,u||r!=null){if(O.then){for(t.__u|=u?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;r!=null&&(r[r.indexOf(c)]=null),t.__e=c}else if(r!=null)for(_e=r.length;_e--;)fe(r[_e])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),O.then||Fe(t),g.__e(O,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):c=t.__e=St(n.__e,t,n,o,s,r,l,u,i);return(p=g.diffed)&&p(t),128&t.__u?void 0:c}function Fe(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(Fe))}function qe(e,t,n){for(var o=0;o<n.length;o++)$e(n[o],n[++o],n[++o]);g.__c&&g.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){g.__e(r,s.__v)}})}function Oe(e){return typeof e!="object"||e==null||e.__b>0?e:se(e)?e.map(Oe):e.constructor!==void 0?null:H({},e)}function St(e,t,n,o,s,r,l,c,u){var i,p,_,a,d,h,N,f=n.props||te,w=t.props,y=t.type;if(y=="svg"?s="http://www.w3.org/2000/svg":y=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(i=0;i<r.length;i++)if((d=r[i])&&"setAttribute"in d==!!y&&(y?d.localName==y:d.nodeType==3)){e=d,r[i]=null;break}}if(e==null){if(y==null)return document.createTextNode(w);e=document.createElementNS(s,y,w.is&&w),c&&(g.__m&&g.__m(t,r),c=!1),r=null}if(y==null)f===w||c&&e.data==w||(e.data=w);else{if(r=y=="textarea"&&w.defaultValue!=null?null:r&&oe.call(e.childNodes),!c&&r!=null)for(f={},i=0;i<e.attributes.length;i++)f[(d=e.attributes[i]).name]=d.value;for(i in f)d=f[i],i=="dangerouslySetInnerHTML"?_=d:i=="children"||i in w||i=="value"&&"defaultValue"in w||i=="checked"&&"defaultChecked"in w||X(e,i,null,d,s);for(i in w)d=w[i],i=="children"?a=d:i=="dangerouslySetInnerHTML"?p=d:i=="value"?h=d:i=="checked"?N=d:c&&typeof d!="function"||f[i]===d||X(e,i,d,f[i],s);if(p)c||_&&(p.__html==_.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[];else if(_&&(e.innerHTML=""),Me(t.type=="template"?e.content:e,se(a)?a:[a],t,n,o,y=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,l,r?r[0]:n.__k&&F(n,0),c,u),r!=null)for(i=r.length;i--;)fe(r[i]);c&&y!="textarea"||(i="value",y=="progress"&&h==null?e.removeAttribute("value"):h!=null&&(h!==e[i]||y=="progress"&&!h||y=="option"&&h!=f[i])&&X(e,i,h,f[i],s),i="checked",N!=null&&N!=e[i]&&X(e,i,N,f[i],s))}return e}function $e(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){g.__e(s,n)}}function je(e,t,n){var o,s;if(g.unmount&&g.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||$e(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){g.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&je(o[s],t,n||typeof e.type!="function");n||fe(e.__e),e.__c=e.__=e.__e=void 0}function Pt(e,t,n){return this.constructor(e,n)}function ye(e,t,n){var o,s,r,l;t==document&&(t=document.documentElement),g.__&&g.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],be(t,e=(!o&&n||t).__k=ie(ae,null,[e]),s||te,te,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?oe.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,l),qe(r,e,l),e.props.children=null}oe=ne.slice,g={__e:function(e,t,n,o){for(var s,r,l;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),l=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),l=s.__d),l)return s.__E=s}catch(c){e=c}throw e}},Ue=0,$t=function(e){return e!=null&&e.constructor===void 0},z.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=H({},this.state),typeof e=="function"&&(e=e(H({},n),this.props)),e&&H(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Re(this))},z.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Re(this))},z.prototype.render=ae,M=[],De=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Ie=function(e,t){return e.__v.__b-t.__v.__b},re.__r=0,pe=Math.random().toString(8),Z="__d"+pe,V="__a"+pe,He=/(PointerCapture)$|Capture$/i,he=0,de=Ne(!1),me=Ne(!0),yt=0;var ge="rolegate.console.key",Et=location.pathname.replace(/console\/.*$/,""),ve=()=>sessionStorage.getItem(ge)||"",Ge=e=>sessionStorage.setItem(ge,e),we=()=>sessionStorage.removeItem(ge),le=class extends Error{constructor(t,n){super(n),this.status=t}},Be=()=>{},Ke=e=>{Be=e},$=encodeURIComponent;async function C(e,t,{query:n,body:o,key:s}={}){let r=new URL(Et+"api/"+t,location.origin);for(let[p,_]of Object.entries(n||{}))_!=null&&_!==""&&r.searchParams.set(p,String(_));let l={Authorization:"Bearer "+(s??ve()),Accept:"application/json"},c={method:e,headers:l,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(l["Content-Type"]="application/json",c.body=JSON.stringify(o));let u;try{u=await fetch(r,c)}catch(p){throw new le(0,"The server cannot be reached ("+p.message+")")}let i=null;try{i=await u.json()}catch{}if(!u.ok||!i||i.success!==!0){let p=i&&i.message?i.message:u.status+" "+u.statusText;throw i&&i.error&&i.error!==i.message&&(p+=": "+i.error),u.status===401&&s===void 0&&Be(p),new le(u.status,p)}return i.data}var v=(e,t)=>C("GET",e,{query:t});var ze=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],c=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=c:l===4?o[1]=Object.assign(o[1]||{},c):l===5?(o[1]=o[1]||{})[t[++r]]=c:l===6?o[1][t[++r]]+=c+"":l?(s=e.apply(c,ze(e,c,n,["",null])),o.push(s),c[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(c)}return o},Ve=new Map;function Je(e){var t=Ve.get(this);return t||(t=new Map,Ve.set(this,t)),(t=ze(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,l="",c="",u=[0],i=function(a){r===1&&(a||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,a,l):r===3&&(a||l)?(u.push(3,a,l),r=2):r===2&&l==="..."&&a?u.push(4,a,0):r===2&&l&&!a?u.push(5,0,!0,l):r>=5&&((l||!a&&r===5)&&(u.push(r,0,l,s),r=6),a&&(u.push(r,a,0,s),r=6)),l=""},p=0;p<n.length;p++){p&&(r===1&&i(),i(p));for(var _=0;_<n[p].length;_++)o=n[p][_],r===1?o==="<"?(i(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:c?o===c?c="":l+=o:o==='"'||o==="'"?c=o:o===">"?(i(),r=1):r&&(o==="="?(r=5,s=l,l=""):o==="/"&&(r<5||n[p][_+1]===">")?(i(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(i(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return i(),u})(e)),t),arguments,[])).length>1?t:t[0]}var m=Je.bind(ie);var J,k,ke,Ye,Y=0,ot=[],S=g,Qe=S.__b,Xe=S.__r,Ze=S.diffed,et=S.__c,tt=S.unmount,nt=S.__;function Pe(e,t){S.__h&&S.__h(k,e,Y||t),Y=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function b(e){return Y=1,Ct(lt,e)}function Ct(e,t,n){var o=Pe(J++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):lt(void 0,t),function(c){var u=o.__N?o.__N[0]:o.__[0],i=o.t(u,c);u!==i&&(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=k,!k.__f)){var s=function(c,u,i){if(!o.__c.__H)return!0;var p=!1,_=o.__c.props!==c;if(o.__c.__H.__.some(function(d){if(d.__N){p=!0;var h=d.__[0];d.__=d.__N,d.__N=void 0,h!==d.__[0]&&(_=!0)}}),r){var a=r.call(this,c,u,i);return p?a||_:a}return!p||_};k.__f=!0;var r=k.shouldComponentUpdate,l=k.componentWillUpdate;k.componentWillUpdate=function(c,u,i){if(this.__e){var p=r;r=void 0,s(c,u,i),r=p}l&&l.call(this,c,u,i)},k.shouldComponentUpdate=s}return o.__N||o.__}function I(e,t){var n=Pe(J++,3);!S.__s&&at(n.__H,t)&&(n.__=e,n.u=t,k.__H.__h.push(n))}function j(e){return Y=5,st(function(){return{current:e}},[])}function st(e,t){var n=Pe(J++,7);return at(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function it(e,t){return Y=8,st(function(){return e},t)}function xt(){for(var e;e=ot.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(ce),t.__h.some(Se),t.__h=[]}catch(n){t.__h=[],S.__e(n,e.__v)}}}S.__b=function(e){k=null,Qe&&Qe(e)},S.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),nt&&nt(e,t)},S.__r=function(e){Xe&&Xe(e),J=0;var t=(k=e.__c).__H;t&&(ke===k?(t.__h=[],k.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(ce),t.__h.some(Se),t.__h=[],J=0)),ke=k},S.diffed=function(e){Ze&&Ze(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(ot.push(t)!==1&&Ye===S.requestAnimationFrame||((Ye=S.requestAnimationFrame)||Tt)(xt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),ke=k=null},S.__c=function(e,t){t.some(function(n){try{n.__h.some(ce),n.__h=n.__h.filter(function(o){return!o.__||Se(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],S.__e(o,n.__v)}}),et&&et(e,t)},S.unmount=function(e){tt&&tt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{ce(o)}catch(s){t=s}}),n.__H=void 0,t&&S.__e(t,n.__v))};var rt=typeof requestAnimationFrame=="function";function Tt(e){var t,n=function(){clearTimeout(o),rt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);rt&&(t=requestAnimationFrame(n))}function ce(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function Se(e){var t=k;e.__c=e.__(),k=t}function at(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function lt(e,t){return typeof t=="function"?t(e):t}var E=50;function x(e,t,n){let o=JSON.stringify(n),[s,r]=b({key:o,cursors:[void 0]}),l=s.key===o?s.cursors:[void 0],[c,u]=b({items:[],loading:!0,error:""}),[i,p]=b(0),_=l[l.length-1];I(()=>{let d=!0;return u(h=>({...h,loading:!0})),e(_).then(h=>d&&u({items:h||[],loading:!1,error:""}),h=>d&&u({items:[],loading:!1,error:h.message})),()=>{d=!1}},[o,_,i]);let a=c.items;return{...c,page:l.length,hasNext:a.length>=E,hasPrev:l.length>1,next:()=>a.length&&r({key:o,cursors:[...l,t(a[a.length-1])]}),prev:()=>r({key:o,cursors:l.slice(0,-1)}),reload:()=>p(d=>d+1)}}function Rt({p:e,label:t}){return!e.hasPrev&&!e.hasNext?null:m`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function A({text:e,id:t}){return e?m`<p class="error" role="alert" id=${t}>${e}</p>`:null}function P({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:l,hint:c,list:u}){return m`<div class="field">
    <label for=${e}>${t}${s?"":m` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${s} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${c?e+"-hint":void 0}
      onInput=${i=>o(i.currentTarget.value)} />
    ${c&&m`<small id=${e+"-hint"}>${c}</small>`}
  </div>`}function L(){let[e,t]=b(!1),[n,o]=b(""),s=it(async r=>{t(!0),o("");try{return await r()}catch(l){o(l.message);return}finally{t(!1)}},[]);return{busy:e,error:n,run:s,setError:o}}function R({p:e,label:t,empty:n,render:o,id:s}){return m`<div class="list" id=${s} aria-busy=${e.loading}>
    <${A} text=${e.error} />
    ${!e.loading&&!e.error&&e.items.length===0&&m`<p class="empty">${n}</p>`}
    ${e.items.length>0&&m`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${Rt} p=${e} label=${t} />
  </div>`}var T=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function ct(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function ut({notify:e}){let t=x(_=>v("roles",{limit:E,after:_}),_=>_.role,[]),[n,o]=b(""),[s,r]=b(""),[l,c]=b(""),u=j(null);I(()=>{!l&&u.current&&u.current.isConnected&&u.current.focus()},[l]);let i=L();return m`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${_=>{_.preventDefault(),i.run(async()=>{await C("POST","role/"+$(n),{body:s?{description:s}:void 0}),e("Role "+n+" created."),o(""),r(""),t.reload()})}}>
        <${P} id="new-role" label="Role name" value=${n} onInput=${o} required />
        <${P} id="new-role-desc" label="Description" value=${s} onInput=${r} />
        <button type="submit" disabled=${i.busy}>Create role</button>
      </form>
      <${A} text=${i.error} id="new-role-error" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${R} p=${t} label="Roles" id="roles-list" empty="No roles yet." render=${_=>m`
        <li key=${_.role} class="row">
          <a href=${T("role",_.role)}>${_.role}</a>
          <span class="desc">${_.description}</span>
          <button type="button" class="danger" onClick=${a=>{u.current=a.currentTarget,c(_.role)}}
            aria-label=${"Delete role "+_.role}>Delete</button>
        </li>`} />
    </section>
    ${l&&m`<${At} role=${l} onClose=${_=>{c(""),_&&(e(_),t.reload(),u.current=null)}} />`}`}var q=100;function At({role:e,onClose:t}){let n=j(),[o,s]=b(null),r=L();I(()=>{let u=n.current;u.showModal();let i=()=>t("");return u.addEventListener("cancel",i),r.run(async()=>{let[p,_,a,d]=await Promise.all([v("members/"+$(e),{limit:q}),v("role_permissions/"+$(e),{limit:q}),v("role/"+$(e)+"/inherits",{limit:q}),v("role/"+$(e)+"/inherited_by",{limit:q})]);s({members:p.map(h=>h.user),perms:_.map(h=>h.name),parents:a.map(h=>h.role),children:d.map(h=>h.role)})}),()=>u.removeEventListener("cancel",i)},[e]);let l=()=>r.run(async()=>{let u=await C("DELETE","role/"+$(e)),i=o;t(u.deleted?"Role "+e+" deleted, with "+G(i.members,"membership")+" and "+G(i.perms,"permission")+".":"Role "+e+" was already gone.")}),c=u=>u.length===0?"none":u.join(", ")+(u.length>=q?" and more":"");return m`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${A} text=${r.error} />
    ${o?m`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${G(o.members,"global membership")}</strong>: ${c(o.members)}</li>
        <li><strong>${G(o.perms,"permission")}</strong>: ${c(o.perms)}</li>
        <li><strong>${G(o.parents,"parent link")}</strong> (it inherits from): ${c(o.parents)}</li>
        <li><strong>${G(o.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${c(o.children)}</li>
        <li>its memberships in any scope</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:m`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${l} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function G(e,t){return(e.length>=q?q+"+":String(e.length))+" "+t+(e.length===1?"":"s")}function _t({role:e,notify:t}){let[n,o]=b(0),s=c=>{t(c),o(u=>u+1)},[r,l]=b({text:"",error:""});return I(()=>{let c=!0;return v("role/"+$(e)).then(u=>c&&l({text:u.description||"No description.",error:""}),u=>c&&l({text:"",error:u.message})),()=>{c=!1}},[e]),m`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${r.text}</p>
    <${A} text=${r.error} id="role-error" />
    <div class="cols">
      <${Nt} role=${e} tick=${n} changed=${s} />
      <${Ut} role=${e} tick=${n} changed=${s} />
    </div>
    <${Dt} role=${e} tick=${n} />
    <${Ht} role=${e} tick=${n} />
    <${Lt} role=${e} tick=${n} changed=${s} />`}function Ee({id:e,label:t,button:n,add:o,extra:s}){let[r,l]=b(""),c=L();return m`<form class="inline" onSubmit=${i=>{i.preventDefault(),c.run(async()=>{await o(r),l("")})}}>
      <${P} id=${e} label=${t} value=${r} onInput=${l} required />
      ${s}
      <button type="submit" disabled=${c.busy}>${n}</button>
    </form>
    <${A} text=${c.error} id=${e+"-error"} />`}function Ce({label:e,remove:t}){let n=L();return m`<button type="button" class="danger" aria-label=${e} disabled=${n.busy}
    onClick=${()=>n.run(t)}>Remove</button>${n.error&&m`<span class="error" role="alert">${n.error}</span>`}`}function Nt({role:e,tick:t,changed:n}){let o=x(r=>v("role_permissions/"+$(e),{limit:E,after:r}),r=>r.name,[e,t]),s=r=>"permission/"+$(e)+"/"+$(r);return m`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${Ee} id="grant-name" label="Permission" button="Grant" add=${async r=>{await C("POST",s(r)),n("Granted "+r+" to "+e+".")}} />
    <${R} p=${o} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${r=>m`
      <li key=${r.name} class="row"><a href=${T("whocan",r.name)}>${r.name}</a>
        <${Ce} label=${"Remove permission "+r.name} remove=${async()=>{await C("DELETE",s(r.name)),n("Removed "+r.name+" from "+e+".")}} /></li>`} />
  </section>`}function Ut({role:e,tick:t,changed:n}){let o=x(r=>v("role/"+$(e)+"/inherits",{limit:E,after:r}),r=>r.role,[e,t]),s=r=>"role/"+$(e)+"/inherits/"+$(r);return m`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${Ee} id="parent-name" label="Parent role" button="Inherit" add=${async r=>{await C("POST",s(r)),n(e+" now inherits from "+r+".")}} />
    <${R} p=${o} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${r=>m`
      <li key=${r.role} class="row"><a href=${T("role",r.role)}>${r.role}</a>
        <${Ce} label=${"Stop inheriting from "+r.role} remove=${async()=>{await C("DELETE",s(r.role)),n(e+" no longer inherits from "+r.role+".")}} /></li>`} />
  </section>`}function Dt({role:e,tick:t}){let n=x(o=>v("role/"+$(e)+"/inherited_by",{limit:E,after:o}),o=>o.role,[e,t]);return m`<section aria-labelledby="children-h">
    <h2 id="children-h">Roles inheriting from ${e}</h2>
    <${R} p=${n} label="Roles inheriting from it" id="children-list" empty="None." render=${o=>m`
      <li key=${o.role} class="row"><a href=${T("role",o.role)}>${o.role}</a></li>`} />
  </section>`}async function It(e){let t=[{role:e,chain:[e]}],n=new Set([e]);for(let o=0;o<t.length&&t.length<200;o++){let s=await v("role/"+$(t[o].role)+"/inherits",{limit:1e3});for(let{role:r}of s)n.has(r)||(n.add(r),t.push({role:r,chain:[...t[o].chain,r]}))}return t}function Ht({role:e,tick:t}){let n=x(async o=>{let[s,r]=await Promise.all([v("role_permissions/"+$(e),{limit:E,after:o,effective:"true"}),It(e)]);return Promise.all(s.map(async({name:l})=>{for(let c of r)if((await v("permission/"+$(c.role)+"/"+$(l))).result)return{name:l,chain:c.chain};return{name:l,chain:[]}}))},o=>o.name,[e,t]);return m`<section aria-labelledby="eff-h">
    <h2 id="eff-h">Effective permissions of ${e}</h2>
    <${R} p=${n} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${o=>m`
      <li key=${o.name} class="row"><span class="name">${o.name}</span>
        <span class="src">${o.chain.length<=1?"granted directly":"inherited from "+o.chain[o.chain.length-1]+" ("+o.chain.join(" \u2192 ")+")"}</span></li>`} />
  </section>`}function Lt({role:e,tick:t,changed:n}){let[o,s]=b(""),[r,l]=b(""),c=x(i=>v("members/"+$(e),{limit:E,after:i,scope:r}),i=>i.user,[e,t,r]),u=i=>"membership/"+$(i)+"/"+$(e);return m`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${Ee} id="member-user" label="User" button="Add member" add=${async i=>{await C("POST",u(i),{query:{scope:o}}),n(i+" is now a member of "+e+(o?" in scope "+o:"")+".")}} extra=${m`<${P} id="member-scope" label="Scope" value=${o} onInput=${s}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <form class="inline" onSubmit=${i=>{i.preventDefault(),l(o)}}>
      <p class="hint">Showing ${r?"members in scope \u201C"+r+"\u201D (global ones included)":"global members"}.</p>
      <button type="submit">Show members in this scope</button>
    </form>
    <${R} p=${c} label="Members" id="members-list" empty="No members." render=${i=>m`
      <li key=${i.user} class="row"><a href=${T("user",i.user)}>${i.user}</a>
        <${Ce} label=${"Remove member "+i.user} remove=${async()=>{await C("DELETE",u(i.user),{query:{scope:r}}),n(i.user+" is no longer a member of "+e+(r?" in scope "+r:"")+".")}} /></li>`} />
  </section>`}function ue({go:e,initial:t}){let[n,o]=b(t||"");return m`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(T("user",n))}}>
    <${P} id="lookup-user" label="User" value=${n} onInput=${o} required />
    <button type="submit">Show user</button>
  </form>`}async function pt(e,t,n){let o=await v("has_permission/"+$(e)+"/"+$(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+ct(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function dt({user:e,go:t}){let[n,o]=b(""),[s,r]=b(""),l=x(f=>v("user_roles/"+$(e),{limit:E,after:f,scope:s}),f=>f.role,[e,s]),c=x(f=>v("user_permissions/"+$(e),{limit:E,after:f,scope:s}),f=>f.name,[e,s]),[u,i]=b(""),[p,_]=b(""),[a,d]=b({}),h=L();return m`
    <${ue} go=${t} initial=${e} />
    <form class="inline" onSubmit=${f=>{f.preventDefault(),r(n)}}>
      <${P} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${f=>{f.preventDefault(),h.run(async()=>_(await pt(e,u,s)))}}>
        <${P} id="check-perm" label="Permission" value=${u} onInput=${i} required />
        <button type="submit" disabled=${h.busy}>Check</button>
      </form>
      <${A} text=${h.error} />
      <p id="check-result" role="status" class=${p.includes(": yes")?"yes":"no"}>${p}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${R} p=${l} label="Roles of the user" id="user-roles" empty="Member of no role." render=${f=>m`
          <li key=${f.role} class="row"><a href=${T("role",f.role)}>${f.role}</a></li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${R} p=${c} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${f=>m`
          <li key=${f.name} class="row wrap"><span class="name">${f.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+f.name+"?"}
              onClick=${async()=>{let w;try{w=await pt(e,f.name,s)}catch(y){w=y.message}d({...a,[f.name]:w})}}>Why?</button>
            ${a[f.name]&&m`<span class="why" role="status">${a[f.name]}</span>`}</li>`} />
      </section>
    </div>`}function mt({go:e,notify:t}){let n=x(_=>v("scoped_memberships",{limit:E,after:_}),_=>_.scope+"/"+_.user+"/"+_.role,[]),[o,s]=b(""),[r,l]=b(""),[c,u]=b(""),i=L();return m`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${_=>{_.preventDefault(),i.run(async()=>{await C("POST","membership/"+$(o)+"/"+$(r),{query:{scope:c}}),t(o+" is now a member of "+r+(c?" in scope "+c:" globally")+"."),s(""),n.reload()})}}>
        <${P} id="m-user" label="User" value=${o} onInput=${s} required />
        <${P} id="m-role" label="Role" value=${r} onInput=${l} required />
        <${P} id="m-scope" label="Scope" value=${c} onInput=${u} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${i.busy}>Add membership</button>
      </form>
      <${A} text=${i.error} />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${ue} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${R} p=${n} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${_=>m`
        <li key=${_.scope+"/"+_.user+"/"+_.role} class="row">
          <span class="scope">${_.scope}</span>
          <span class="grow"><a href=${T("user",_.user)}>${_.user}</a> is a member of <a href=${T("role",_.role)}>${_.role}</a></span>
          <button type="button" class="danger" aria-label=${"Remove "+_.user+" from "+_.role+" in scope "+_.scope}
            onClick=${()=>i.run(async()=>{await C("DELETE","membership/"+$(_.user)+"/"+$(_.role),{query:{scope:_.scope}}),t(_.user+" is no longer a member of "+_.role+" in scope "+_.scope+"."),n.reload()})}>Remove</button></li>`} />
    </section>`}function ht({name:e,go:t}){let[n,o]=b(e||""),[s,r]=b(""),[l,c]=b(""),u=x(p=>e?v("which_users_can/"+$(e),{limit:E,after:p,scope:l}):Promise.resolve([]),p=>p.user,[e,l]),i=x(p=>e?v("which_roles_can/"+$(e),{limit:E,after:p}):Promise.resolve([]),p=>p.role,[e]);return m`
    <form class="inline" onSubmit=${p=>{p.preventDefault(),c(s),n&&t(T("whocan",n))}}>
      <${P} id="whocan-perm" label="Permission" value=${n} onInput=${o} required />
      <${P} id="whocan-scope" label="Scope" value=${s} onInput=${r} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&m`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${l?" in scope "+l:""}</h2>
        <${R} p=${u} label="Users" id="whocan-users" empty="Nobody." render=${p=>m`
          <li key=${p.user} class="row"><a href=${T("user",p.user)}>${p.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${R} p=${i} label="Roles" id="whocan-roles" empty="No role." render=${p=>m`
          <li key=${p.role} class="row"><a href=${T("role",p.role)}>${p.role}</a></li>`} />
      </section>
    </div>`}`}var Mt=["add_role","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function ft(){let[e,t]=b(""),[n,o]=b(""),s=x(r=>v("audit",{limit:E,before:r,action:n}),r=>r.id,[n]);return m`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${P} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${Mt.map(r=>m`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${A} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>m`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&m`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function bt(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||""}}var Wt=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Ft({onIn:e,reason:t}){let[n,o]=b(""),[s,r]=b(t),[l,c]=b(!1);return m`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async i=>{i.preventDefault(),c(!0),r("");try{await C("GET","roles",{query:{limit:1},key:n.trim()}),Ge(n.trim()),e()}catch(p){r(p.message)}finally{c(!1)}}}>
      <${P} id="client-key" type="password" label="Client key" value=${n} onInput=${o} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${l}>Sign in</button>
    </form>
    <${A} text=${s} id="signin-error" />
  </main>`}function qt(){let[e,t]=b(!!ve()),[n,o]=b(""),[s,r]=b(bt()),[l,c]=b(""),u=j();if(I(()=>{let d=()=>{r(bt()),c("")};return addEventListener("hashchange",d),Ke(h=>{we(),o(h),t(!1)}),()=>removeEventListener("hashchange",d)},[]),I(()=>{u.current&&u.current.focus()},[s.page,s.arg,e]),!e)return m`<${Ft} reason=${n} onIn=${()=>{o(""),t(!0)}} />`;let i=d=>{location.hash=d},p=c,_,a;switch(s.page){case"role":_="Role "+s.arg,a=m`<${_t} role=${s.arg} notify=${p} />`;break;case"members":_="Members",a=m`<${mt} go=${i} notify=${p} />`;break;case"user":_=s.arg?"User "+s.arg:"Users",a=s.arg?m`<${dt} user=${s.arg} go=${i} />`:m`<${ue} go=${i} />`;break;case"whocan":_=s.arg?"Who can "+s.arg:"Who can",a=m`<${ht} name=${s.arg} go=${i} />`;break;case"audit":_="Audit log",a=m`<${ft} />`;break;default:_="Roles",a=m`<${ut} notify=${p} />`}return document.title=_+" \xB7 rolegate console",m`
    <a class="skip" href="#main" onClick=${d=>{d.preventDefault(),u.current&&u.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${Wt.map(([d,h])=>m`<li><a href=${"#/"+d} aria-current=${s.page===d?"page":void 0}>${h}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{we(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${u}>${_}</h1>
      <p id="status" role="status" aria-live="polite">${l}</p>
      ${a}
    </main>`}ye(m`<${qt} />`,document.getElementById("app"));
